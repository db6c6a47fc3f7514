using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Compliance.Summary;

/// <summary>What ranks an instance among those to fix: where it runs, its verdict and what zeroing costs it.</summary>
/// <param name="RestoreExtraSeconds">The slowest database restore's wait on data-file zeroing (what IFI would save).</param>
public sealed record FixFigures(long InstanceId, string InstanceName, string Environment, ComplianceStatus Status,
    TimeSpan TimeLostLast30Days, double RestoreExtraSeconds)
{
    /// <summary>Time people waited, or would wait, on zeroing: the last 30 days' growths plus one restore of the slowest database.</summary>
    public TimeSpan WaitOnZeroing => TimeLostLast30Days + TimeSpan.FromSeconds(RestoreExtraSeconds);
}

/// <summary>How much an environment's name says its instances matter, most first.</summary>
public enum EnvironmentTier
{
    /// <summary>Production and disaster recovery: a restore there is the business waiting.</summary>
    Production,

    /// <summary>A name not recognised: ranked before the ones known to be pre-production or test.</summary>
    Other,

    PreProduction,
    TestOrDevelopment,
}

/// <summary>
/// The overview's "what to fix first": the instances not compliant with their policy and not waived (status
/// NonCompliant), Production before other environments, then by time lost to zeroing in the last 30 days plus the
/// slowest database restore's wait on zeroing, most first; ties by name, then id, so the list does not reshuffle.
/// </summary>
public static class FixFirst
{
    static readonly Dictionary<string, EnvironmentTier> KnownEnvironments = new(StringComparer.OrdinalIgnoreCase)
    {
        ["production"] = EnvironmentTier.Production, ["prod"] = EnvironmentTier.Production, ["prd"] = EnvironmentTier.Production,
        ["live"] = EnvironmentTier.Production, ["dr"] = EnvironmentTier.Production, ["disaster recovery"] = EnvironmentTier.Production,
        ["staging"] = EnvironmentTier.PreProduction, ["stage"] = EnvironmentTier.PreProduction, ["uat"] = EnvironmentTier.PreProduction,
        ["acceptance"] = EnvironmentTier.PreProduction, ["preprod"] = EnvironmentTier.PreProduction,
        ["pre-production"] = EnvironmentTier.PreProduction, ["qa"] = EnvironmentTier.PreProduction,
        ["test"] = EnvironmentTier.TestOrDevelopment, ["testing"] = EnvironmentTier.TestOrDevelopment,
        ["development"] = EnvironmentTier.TestOrDevelopment, ["dev"] = EnvironmentTier.TestOrDevelopment,
        ["sandbox"] = EnvironmentTier.TestOrDevelopment, ["lab"] = EnvironmentTier.TestOrDevelopment,
    };

    public static EnvironmentTier TierOf(string? environment) =>
        KnownEnvironments.GetValueOrDefault(environment?.Trim() ?? "", EnvironmentTier.Other);

    /// <summary>Every instance to fix, first to fix first.</summary>
    public static IReadOnlyList<T> Rank<T>(IEnumerable<T> instances, Func<T, FixFigures> figuresOf) =>
        instances
            .Select(i => (Item: i, Figures: figuresOf(i)))
            .Where(x => x.Figures.Status == ComplianceStatus.NonCompliant)
            .OrderBy(x => TierOf(x.Figures.Environment))
            .ThenByDescending(x => x.Figures.WaitOnZeroing)
            .ThenBy(x => x.Figures.InstanceName, StringComparer.OrdinalIgnoreCase)
            .ThenBy(x => x.Figures.InstanceName, StringComparer.Ordinal)
            .ThenBy(x => x.Figures.InstanceId)
            .Select(x => x.Item)
            .ToList();
}
