using IfiDashboard.Client.Pages.Detail;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Tests.TestData;

/// <summary>The detail of the worked example's SQLFIN01 (docs/compliance.md): IFI off, one database, growth history.</summary>
public static class Details
{
    static readonly DateTimeOffset Now = InstanceSpec.Now;

    /// <summary>
    /// Growth number <paramref name="i"/>, every seven hours back from three hours ago, each fourth of the log. IFI was
    /// lost at the restart five days ago (the timeline's change): growths before it had IFI.
    /// </summary>
    static GrowthEventAssessment Growth(int i)
    {
        var log = i % 4 == 3;
        var start = Now.AddHours(-3 - i * 7);
        var ifiOn = start < Restart;
        return new GrowthEventAssessment
        {
            InstanceId = 1,
            Event = new GrowthEventFacts
            {
                EventClass = log ? GrowthEventFacts.LogFileAutoGrow : GrowthEventFacts.DataFileAutoGrow,
                DatabaseId = 5, DatabaseName = "Finance", LogicalFileName = log ? "Finance_log" : "Finance",
                StartTime = start, DurationMicroseconds = 800_000 + i * 10_000, GrowthPages = 8192,
            },
            Zeroing = (log, ifiOn) switch
            {
                (true, _) => GrowthZeroing.LogZeroed,
                (false, true) => GrowthZeroing.DataNotZeroed,
                _ => GrowthZeroing.DataZeroedWithoutIfi,
            },
            FileIfi = (log, ifiOn) switch
            {
                (true, _) => new FileIfiDecision(FileIfi.Off, FileIfiReason.LogAlwaysZeroed, "log"),
                (false, true) => new FileIfiDecision(FileIfi.On, FileIfiReason.InstanceIfiOn, "on"),
                _ => new FileIfiDecision(FileIfi.Off, FileIfiReason.InstanceIfiOff, "off"),
            },
            InstanceIfi = new IfiAtTime(ifiOn ? IfiState.Enabled : IfiState.Disabled, i == 0 ? IfiEvidence.AssumedCurrent : IfiEvidence.SameServiceRun),
        };
    }

    public static readonly DateTimeOffset Restart = Now.AddDays(-5);

    public static InstanceDetail SqlFin01(int growthEvents = 4, IReadOnlyList<ProbeOutcome>? probes = null)
    {
        var assessment = Fleets.Mixed()[0];
        var data = new DatabaseFileFacts
        {
            DatabaseId = 5, DatabaseName = "Finance", LogicalName = "Finance", PhysicalPath = @"D:\Data\Finance.mdf",
            Type = FileType.Rows, SizePages = 26_214_400, Growth = 10, IsPercentGrowth = true,
        };
        var log = data with { LogicalName = "Finance_log", PhysicalPath = @"L:\Logs\Finance_log.ldf", Type = FileType.Log, SizePages = 1_310_720, Growth = 8192, IsPercentGrowth = false };
        return new InstanceDetail
        {
            Assessment = assessment,
            Services =
            [
                new ServiceInfo { ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = @"CORP\svc_sql", IsEngine = true, InstantFileInitializationEnabled = "N", StatusDesc = "Running", StartupTypeDesc = "Automatic", LastStartupTime = Now.AddDays(-5) },
                new ServiceInfo { ServiceName = "SQL Server Agent (MSSQLSERVER)", ServiceAccount = @"NT Service\SQLSERVERAGENT", InstantFileInitializationEnabled = "N", StatusDesc = "Running" },
            ],
            Files =
            [
                new FileIfiResult(data, new FileIfiDecision(FileIfi.Off, FileIfiReason.InstanceIfiOff, "The instance lacks IFI: data files are zeroed")),
                new FileIfiResult(log, new FileIfiDecision(FileIfi.Off, FileIfiReason.LogAlwaysZeroed, "Log files are always zeroed")),
            ],
            Growth = GrowthHistory.Of(GrowthWindow.AllKept, Now, Enumerable.Range(0, growthEvents).Select(Growth)),
            Timeline =
            [
                new TimelineChange { InstanceId = 1, Kind = TimelineChangeKind.ServiceStart, Before = "2025-04-01 02:00", After = "2025-05-03 02:00", SeenAt = Now.AddDays(-5), SeenBySnapshotId = Guid.NewGuid() },
                new TimelineChange { InstanceId = 1, Kind = TimelineChangeKind.IfiFlag, Before = "Y", After = "N", SeenAt = Restart, SeenBySnapshotId = Guid.NewGuid(), AfterRestartAt = Restart.AddMinutes(-3) },
            ],
            Polls =
            [
                new PollRow(11, Guid.NewGuid(), 1, "collector-a", Now.AddMinutes(-1).AddSeconds(-2), Now.AddMinutes(-1), OutcomeClass.Ok, null, IfiState.Disabled, null, true),
                new PollRow(10, Guid.NewGuid(), 1, "collector-a", Now.AddMinutes(-6).AddSeconds(-9), Now.AddMinutes(-6), OutcomeClass.Timeout, "Execution Timeout Expired", IfiState.Unknown, "timeout", false),
            ],
            LastProbes = probes ??
            [
                new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok),
                new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok),
                new ProbeOutcome(ProbeNames.Backups, OutcomeClass.PermissionMissing, "The SELECT permission was denied on the object 'backupset'", 229),
            ],
            DefaultTrace = @"D:\MSSQL\Log\log_12.trc",
        };
    }
}
