using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>Snapshots spread over days of history, with the facts that make a poll referenced from other tables.</summary>
internal static class HistorySnapshots
{
    public static DateTimeOffset Day(double day) => TestStore.Start.AddDays(day);

    public static GrowthEventInfo Growth(DateTimeOffset at) => new()
    {
        EventClass = 92, DatabaseId = 5, DatabaseName = "Sales", FileName = "Sales", StartTime = at,
        EndTime = at.AddSeconds(2), DurationMicroseconds = 2_000_000, GrowthPages = 8192,
    };

    /// <summary>The snapshot with a successful growth-event probe that read <paramref name="events"/>.</summary>
    public static InstanceSnapshot WithGrowth(this InstanceSnapshot snapshot, params GrowthEventInfo[] events) => snapshot with
    {
        Probes = [.. snapshot.Probes, new ProbeOutcome(ProbeNames.GrowthEvents, OutcomeClass.Ok)],
        GrowthEvents = events,
    };

    /// <summary>The snapshot with files, TDE state and backups read: the current-state tables point at its poll.</summary>
    public static InstanceSnapshot WithFiles(this InstanceSnapshot snapshot) => snapshot with
    {
        Probes = [.. snapshot.Probes,
            new ProbeOutcome(ProbeNames.Files, OutcomeClass.Ok),
            new ProbeOutcome(ProbeNames.Encryption, OutcomeClass.Ok),
            new ProbeOutcome(ProbeNames.Backups, OutcomeClass.Ok)],
        Files =
        [
            new DatabaseFileInfo { DatabaseId = 5, DatabaseName = "Sales", FileId = 1, LogicalName = "Sales", PhysicalName = @"D:\Data\Sales.mdf", Type = 0, SizePages = 1_280_000, Growth = 8192 },
        ],
        Encryption = [new DatabaseEncryptionInfo(5, 3)],
        Backups = [new BackupInfo("Sales", new DateTime(2026, 5, 2, 23, 0, 0), 10_485_760_000m, 3_000_000_000m)],
    };
}
