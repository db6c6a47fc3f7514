using System.Globalization;

namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>What the inventory list says after a change, from the query string the redirect carries (Post/Redirect/Get).</summary>
public static class InventoryMessages
{
    public static string Registered(long id, string name) => Url("registered", id, name);
    public static string Updated(long id, string name) => Url("updated", id, name);
    public static string Retired(long id, string name) => Url("retired", id, name);

    public static string Imported(int count) =>
        string.Create(CultureInfo.InvariantCulture, $"inventory?done=imported&name={Uri.EscapeDataString(Components.Quantities.Plural(count, "instance"))}");

    static string Url(string done, long id, string name) =>
        string.Create(CultureInfo.InvariantCulture, $"inventory?done={done}&id={id}&name={Uri.EscapeDataString(name)}");

    public static string? For(string? done, string? name) => done switch
    {
        "registered" => $"Registered {name}. It is polled at once; its status appears within seconds.",
        "updated" => $"Saved {name}. The next poll uses the new settings.",
        "imported" => $"Registered {name} from the file. They are polled at once; their statuses appear within seconds.",
        "retired" => $"Retired {name}. It is no longer polled; its history stays.",
        _ => null,
    };

    /// <summary>"5 min", "1 h", "90 s".</summary>
    public static string Interval(int seconds) => seconds switch
    {
        _ when seconds % 3600 == 0 => $"{seconds / 3600} h",
        _ when seconds % 60 == 0 => $"{seconds / 60} min",
        _ => $"{seconds} s",
    };
}
