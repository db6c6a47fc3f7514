namespace IfiDashboard.Compliance.Restore;

/// <summary>Fleet "worst first" lists. Ties are broken by names so that a page does not reshuffle on refresh.</summary>
public static class RestoreRiskRanking
{
    public static IReadOnlyList<DatabaseRestoreRisk> TopByRestoreTime(IEnumerable<DatabaseRestoreRisk> databases, int count) =>
        databases
            .Where(d => d.ExtraSeconds > 0)
            .OrderByDescending(d => d.ExtraSeconds)
            .ThenBy(d => d.InstanceName, StringComparer.OrdinalIgnoreCase)
            .ThenBy(d => d.DatabaseName, StringComparer.OrdinalIgnoreCase)
            .Take(count)
            .ToList();

    public static IReadOnlyList<FileGrowthStall> TopByGrowthStall(IEnumerable<FileGrowthStall> files, int count) =>
        files
            .Where(f => f.StallSeconds > 0)
            .OrderByDescending(f => f.StallSeconds)
            .ThenBy(f => f.InstanceName, StringComparer.OrdinalIgnoreCase)
            .ThenBy(f => f.DatabaseName, StringComparer.OrdinalIgnoreCase)
            .ThenBy(f => f.LogicalName, StringComparer.OrdinalIgnoreCase)
            .Take(count)
            .ToList();
}
