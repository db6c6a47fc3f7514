using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Summary;

/// <summary>An instance with its verdict: what the fleet summaries group.</summary>
public sealed record AssessedInstance(InstanceFacts Facts, InstanceCompliance Compliance);

public sealed record StatusGroup(string Key, StatusCounts Counts);

public static class FleetSummaries
{
    public const string NoTag = "(no tag)";
    public const string NoOwner = "(no owner)";

    public static StatusCounts Count(IEnumerable<AssessedInstance> instances) =>
        instances.Aggregate(StatusCounts.Zero, (counts, i) => counts.Add(i.Compliance.Status, i.Compliance.IsStale));

    public static IReadOnlyList<StatusGroup> ByEnvironment(IEnumerable<AssessedInstance> instances) =>
        GroupBy(instances, i => [i.Facts.Environment]);

    /// <summary>An instance counts once under each of its tags, so group totals may exceed the fleet's.</summary>
    public static IReadOnlyList<StatusGroup> ByTag(IEnumerable<AssessedInstance> instances) =>
        GroupBy(instances, i => i.Facts.Tags.Count == 0 ? [NoTag] : i.Facts.Tags);

    public static IReadOnlyList<StatusGroup> ByMajorVersion(IEnumerable<AssessedInstance> instances) =>
        GroupBy(instances, i => [VersionKey(i.Facts)]);

    /// <summary>The group <see cref="ByMajorVersion"/> puts an instance in: its platform (Azure) or release name.</summary>
    public static string VersionKey(InstanceFacts facts) =>
        ProductVersions.PlatformProduct(facts.EngineEdition) ?? ProductVersions.ReleaseName(facts.MajorVersion);

    public static IReadOnlyList<StatusGroup> ByOwner(IEnumerable<AssessedInstance> instances) =>
        GroupBy(instances, i => [string.IsNullOrWhiteSpace(i.Facts.Owner) ? NoOwner : i.Facts.Owner]);

    public static IReadOnlyList<StatusGroup> GroupBy(IEnumerable<AssessedInstance> instances,
        Func<AssessedInstance, IEnumerable<string>> keys) =>
        instances
            .SelectMany(i => keys(i).Distinct(StringComparer.OrdinalIgnoreCase).Select(key => (Key: key, Instance: i)))
            .GroupBy(x => x.Key, StringComparer.OrdinalIgnoreCase)
            .Select(g => new StatusGroup(g.Key, Count(g.Select(x => x.Instance))))
            .OrderBy(g => g.Key, StringComparer.OrdinalIgnoreCase)
            .ToList();
}
