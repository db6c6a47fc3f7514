using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>The values each filter offers, taken from the whole fleet so a filter never offers an empty choice.</summary>
public sealed record FilterOptions(
    IReadOnlyList<string> Environments,
    IReadOnlyList<string> Tags,
    IReadOnlyList<(int Major, string Name)> Versions,
    IReadOnlyList<string> Owners,
    IReadOnlyList<DesiredState> Policies)
{
    public static FilterOptions From(IReadOnlyCollection<InstanceGridRow> rows) => new(
        Distinct(rows.Select(r => r.Environment)),
        [.. Distinct(rows.SelectMany(r => r.Tags)), .. rows.Any(r => r.Tags.Count == 0) ? [FleetSummaries.NoTag] : Array.Empty<string>()],
        rows.Select(r => r.MajorVersion).Distinct().Order().Select(m => (m, ProductVersions.ReleaseName(m))).ToList(),
        [.. Distinct(rows.Select(r => r.Owner).Where(o => o.Length > 0)), .. rows.Any(r => r.Owner.Length == 0) ? [FleetSummaries.NoOwner] : Array.Empty<string>()],
        rows.Select(r => r.Desired).Distinct().Order().ToList());

    static List<string> Distinct(IEnumerable<string> values) =>
        values.Where(v => v.Length > 0).Distinct(StringComparer.OrdinalIgnoreCase).Order(StringComparer.OrdinalIgnoreCase).ToList();
}
