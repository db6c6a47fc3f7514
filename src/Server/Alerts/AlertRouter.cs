using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Alerts;

/// <summary>
/// Who hears about an instance: every matching route, in order, up to one marked <see cref="AlertRoute.Stop"/>; the
/// default recipients when none matches. Every route, because one instance can concern several teams (a PCI +
/// Production instance: the production DBAs and security); the first match alone left security out.
/// </summary>
public static class AlertRouter
{
    public static IReadOnlyList<string> RecipientsFor(InstanceRegistration instance, AlertOptions options)
    {
        var matched = options.Routes.Where(r => Matches(r, instance)).ToList();
        if (matched.Count == 0) return Distinct(options.DefaultTo);
        var stop = matched.FindIndex(r => r.Stop);
        return Distinct((stop < 0 ? matched : matched.Take(stop + 1)).SelectMany(r => r.To));
    }

    static bool Matches(AlertRoute route, InstanceRegistration instance) =>
        (string.IsNullOrEmpty(route.Environment) || string.Equals(route.Environment, instance.Environment, StringComparison.OrdinalIgnoreCase)) &&
        (string.IsNullOrEmpty(route.Owner) || string.Equals(route.Owner, instance.Owner, StringComparison.OrdinalIgnoreCase)) &&
        (string.IsNullOrEmpty(route.Tag) || instance.Tags.Contains(route.Tag, StringComparer.OrdinalIgnoreCase));

    static IReadOnlyList<string> Distinct(IEnumerable<string> addresses) =>
        addresses.Select(a => a.Trim()).Where(a => a.Length > 0).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
}
