using System.Globalization;

namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>
/// What the inventory list says after a change, from the query string the redirect carries (Post/Redirect/Get). The
/// redirect carries only a word and numbers: the instance's name is looked up by its id when the list loads, so a
/// crafted link cannot put its own words on the page.
/// </summary>
public static class InventoryMessages
{
    public static string Registered(long id) => Url("registered", id);
    public static string Updated(long id) => Url("updated", id);
    public static string Retired(long id) => Url("retired", id);

    public static string Imported(int count) => string.Create(CultureInfo.InvariantCulture, $"inventory?done=imported&count={count}");

    static string Url(string done, long id) => string.Create(CultureInfo.InvariantCulture, $"inventory?done={done}&id={id}");

    /// <param name="name">The changed instance's registered name; null when the id names none ("the instance").</param>
    /// <param name="count">How many an import registered.</param>
    public static string? For(string? done, string? name, int? count)
    {
        name ??= "the instance";
        return done switch
        {
            "registered" => $"Registered {name}. It is polled at once; its status appears within seconds.",
            "updated" => $"Saved {name}. The next poll uses the new settings.",
            "imported" => $"Registered {Components.Quantities.Plural(Math.Max(0, count ?? 0), "instance")} from the file. They are polled at once; their statuses appear within seconds.",
            "retired" => $"Retired {name}. It is no longer polled; its history stays.",
            _ => null,
        };
    }

    /// <summary>"5 min", "1 h", "90 s".</summary>
    public static string Interval(int seconds) => seconds switch
    {
        _ when seconds % 3600 == 0 => $"{seconds / 3600} h",
        _ when seconds % 60 == 0 => $"{seconds / 60} min",
        _ => $"{seconds} s",
    };
}
