using IfiDashboard.Compliance.Files;

namespace IfiDashboard.Compliance.Restore;

public sealed record InstanceRestoreRisk(
    long InstanceId,
    IReadOnlyList<DatabaseRestoreRisk> Databases,
    IReadOnlyList<FileGrowthStall> GrowthStalls)
{
    /// <summary>The volumes the files sit on, and which rule named them: the restore figures zero them side by side.</summary>
    public IReadOnlyList<InstanceVolume> Volumes { get; init; } = [];

    /// <summary>
    /// The instance's restore wait: the database whose restore would wait longest on data-file zeroing that IFI would
    /// save; null when none would. A TDE database's zeroing is left out: IFI cannot shorten it, so fixing the instance
    /// would not either. The one meaning of an instance's restore figure, on the pages and in the API alike.
    /// </summary>
    public DatabaseRestoreRisk? Slowest => RestoreRiskRanking.TopByRestoreTime(Databases.Where(d => !d.TdeEncrypted), 1).FirstOrDefault();

    /// <summary>Every database's restore wait added up, as if all were restored one after another (the TDE ones left out as in <see cref="Slowest"/>).</summary>
    public double AllDatabasesExtraSeconds => Databases.Where(d => !d.TdeEncrypted).Sum(d => d.ExtraSeconds);
}
