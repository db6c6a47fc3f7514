using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Alerts;

/// <summary>Who hears about an instance: the first matching route, else the default recipients.</summary>
public static class AlertRouter
{
    public static IReadOnlyList<string> RecipientsFor(InstanceRegistration instance, AlertOptions options)
    {
        foreach (var route in options.Routes)
            if (Matches(route, instance)) return Distinct(route.To);
        return Distinct(options.DefaultTo);
    }

    static bool Matches(AlertRoute route, InstanceRegistration instance) =>
        (string.IsNullOrEmpty(route.Environment) || string.Equals(route.Environment, instance.Environment, StringComparison.OrdinalIgnoreCase)) &&
        (string.IsNullOrEmpty(route.Owner) || string.Equals(route.Owner, instance.Owner, StringComparison.OrdinalIgnoreCase)) &&
        (string.IsNullOrEmpty(route.Tag) || instance.Tags.Contains(route.Tag, StringComparer.OrdinalIgnoreCase));

    static IReadOnlyList<string> Distinct(IEnumerable<string> addresses) =>
        addresses.Select(a => a.Trim()).Where(a => a.Length > 0).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
}
