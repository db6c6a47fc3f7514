using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;

namespace IfiDashboard.Collector.Tests.Probes;

/// <summary>Files, TDE, the default trace's growth events and backups, read through SqlClient from the simulator.</summary>
public sealed class CollectedFactsProbeTests
{
    static readonly DateTimeOffset Noon = new(2026, 11, 20, 12, 0, 0, TimeSpan.Zero);

    static ScenarioInstance SalesServer(string profile = "2019", int utcOffsetMinutes = 60) => new()
    {
        Name = "sales",
        Profile = profile,
        IfiEnabled = false,
        UtcOffsetMinutes = utcOffsetMinutes,
        Databases =
        [
            new ScenarioDatabase
            {
                Name = "Sales", Id = 5, EncryptionState = 3,
                Files =
                [
                    new ScenarioDatabaseFile { FileId = 1, Name = "Sales", PhysicalName = @"D:\Data\Sales.mdf", SizePages = 2_621_440, Growth = 8192 },
                    new ScenarioDatabaseFile { FileId = 2, Name = "Sales_log", PhysicalName = @"L:\Log\Sales.ldf", Type = DatabaseFileType.Log, SizePages = 131_072, Growth = 10, IsPercentGrowth = true },
                ],
            },
        ],
        GrowthEvents =
        [
            new ScenarioGrowthEvent { EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = Noon.AddHours(-2), DurationMicroseconds = 3_200_000, GrowthPages = 8192 },
            new ScenarioGrowthEvent { EventClass = 93, Database = "Sales", FileName = "Sales_log", StartTime = Noon.AddHours(-1), DurationMicroseconds = 900_000, GrowthPages = 12_800 },
        ],
        Backups = [new ScenarioBackup { Database = "Sales", Start = DateTimeOffset.UtcNow.AddDays(-1), Finish = DateTimeOffset.UtcNow.AddDays(-1).AddMinutes(20), BackupSize = 21_474_836_480m, CompressedBackupSize = 6_000_000_000m }],
    };

    [Fact]
    public async Task Files_and_tde_state_are_read_with_sizes_in_pages()
    {
        await using var fleet = Fleets.Start(SalesServer());

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        var data = Assert.Single(snapshot.Files, f => f.DatabaseName == "Sales" && f.IsData);
        Assert.Equal((2_621_440, 8192, false, @"D:\Data\Sales.mdf"), (data.SizePages, data.Growth, data.IsPercentGrowth, data.PhysicalName));
        var log = Assert.Single(snapshot.Files, f => f.DatabaseName == "Sales" && f.IsLog);
        Assert.True(log.IsPercentGrowth);
        Assert.Contains(new DatabaseEncryptionInfo(5, 3), snapshot.Encryption);
        Assert.Contains(snapshot.Files, f => f.DatabaseName == "master");
    }

    // sys.master_files hides rows without VIEW ANY DEFINITION instead of raising an error.
    [Theory]
    [InlineData("VIEW ANY DEFINITION", OutcomeClass.Ok)]
    [InlineData("ALTER TRACE", OutcomeClass.PermissionMissing)]
    public async Task Files_hidden_by_metadata_visibility_are_detected_and_named(string permission, OutcomeClass expected)
    {
        var instance = SalesServer();
        instance.Logins = [Fleets.LoginWith("VIEW SERVER STATE", permission)];
        await using var fleet = Fleets.Start(instance);

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        var files = snapshot.Probes.Single(p => p.Probe == ProbeNames.Files);
        Assert.Equal(expected, files.Outcome);
        if (expected == OutcomeClass.PermissionMissing)
            Assert.Contains($"2 of 5 databases", files.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Growth_events_come_back_in_utc_with_microseconds_and_pages()
    {
        await using var fleet = Fleets.Start(SalesServer(utcOffsetMinutes: 60));

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        Assert.Equal(60, snapshot.ServerUtcOffsetMinutes);
        Assert.True(snapshot.DefaultTrace!.Enabled);
        var data = Assert.Single(snapshot.GrowthEvents, e => e.EventClass == 92);
        Assert.Equal(Noon.AddHours(-2), data.StartTime);
        Assert.Equal(TimeSpan.Zero, data.StartTime.Offset);
        Assert.Equal((3_200_000L, 8192L, "Sales"), (data.DurationMicroseconds, data.GrowthPages, data.FileName));
        Assert.Single(snapshot.GrowthEvents, e => e.EventClass == 93);
    }

    // Item 10: a failover cluster instance names its possible owner nodes, the current owner first.
    [Theory]
    [InlineData("2019", "VIEW SERVER STATE", OutcomeClass.Ok)]
    [InlineData("2022", "VIEW SERVER PERFORMANCE STATE", OutcomeClass.Ok)]
    [InlineData("2022", "VIEW SERVER STATE", OutcomeClass.PermissionMissing)]
    public async Task A_failover_cluster_instance_lists_its_nodes_where_permitted(string profile, string permission, OutcomeClass expected)
    {
        var instance = SalesServer(profile);
        instance.ClusterNodes = ["SQLNODE2", "SQLNODE1"];
        instance.Logins = [Fleets.LoginWith("VIEW SERVER SECURITY STATE", permission, "ALTER TRACE", "VIEW ANY DEFINITION")];
        await using var fleet = Fleets.Start(instance);

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        Assert.True(snapshot.Identity!.IsClustered);
        Assert.Equal("Y", snapshot.EngineService?.IsClustered);
        var probe = snapshot.Probes.Single(p => p.Probe == ProbeNames.ClusterNodes);
        Assert.Equal(expected, probe.Outcome);
        if (expected == OutcomeClass.Ok)
            Assert.Equal(["SQLNODE2", "SQLNODE1"], snapshot.ClusterNodes);
        else
            Assert.Null(snapshot.ClusterNodes);
    }

    [Fact]
    public async Task A_standalone_instance_reads_no_cluster_nodes()
    {
        await using var fleet = Fleets.Start(SalesServer());

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        Assert.False(snapshot.Identity!.IsClustered);
        Assert.DoesNotContain(snapshot.Probes, p => p.Probe == ProbeNames.ClusterNodes);
        Assert.Null(snapshot.ClusterNodes);
    }

    // Item 19: time lost and rates rest on what the trace still holds; a first poll must know how far back that is.
    [Fact]
    public async Task The_trace_window_is_the_oldest_event_its_surviving_files_hold()
    {
        var instance = SalesServer(utcOffsetMinutes: 60);
        instance.DefaultTrace = new ScenarioDefaultTrace { MaxFiles = 2, EventsPerFile = 1 };
        instance.GrowthEvents =
        [
            new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Noon.AddDays(-40), DurationMicroseconds = 1_000_000 },
            .. instance.GrowthEvents,
        ];
        await using var fleet = Fleets.Start(instance);

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        // Three events, one per file, two files kept: the event of 40 days ago has rolled over.
        Assert.Equal(Noon.AddHours(-2), snapshot.DefaultTrace!.OldestEventAt);
        Assert.DoesNotContain(snapshot.GrowthEvents, e => e.StartTime == Noon.AddDays(-40));
    }

    [Fact]
    public async Task Second_poll_reads_only_events_that_ended_within_the_overlap_of_the_watermark()
    {
        var instance = SalesServer();
        await using var fleet = Fleets.Start(instance);
        var prober = ProberFactory.Create();
        var registration = ProberFactory.Registration(fleet["sales"]);

        await prober.PollAsync(registration, CancellationToken.None);
        instance.AppendGrowthEvent(new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Noon, DurationMicroseconds = 1_000_000 });
        var second = await prober.PollAsync(registration, CancellationToken.None);

        // The newest event read before (ended at 11:00:00.9) is read again inside the overlap; the 10:00 one is not.
        Assert.Equal([Noon.AddHours(-1), Noon], second.GrowthEvents.Select(e => e.StartTime));
    }

    // Issue 29: a poll read the whole default trace (up to five files of 20 MB) twice. Now the growth events are read
    // from the file that was current at the last poll on, and the trace window from the oldest file alone.
    [Fact]
    public async Task Second_poll_reads_the_trace_from_the_file_current_at_the_first_on()
    {
        var instance = SalesServer();
        instance.DefaultTrace = new ScenarioDefaultTrace { MaxFiles = 5, EventsPerFile = 1 };
        await using var fleet = Fleets.Start(instance);
        var prober = ProberFactory.Create();
        var registration = ProberFactory.Registration(fleet["sales"]);

        await prober.PollAsync(registration, CancellationToken.None);
        Assert.Equal(["log_1.trc", "log_1.trc, log_2.trc"], fleet["sales"].Transcript.TextsOf(TranscriptKinds.TraceRead).Order());
        fleet["sales"].Transcript.Clear();
        instance.AppendGrowthEvent(new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Noon, DurationMicroseconds = 1_000_000 });
        var second = await prober.PollAsync(registration, CancellationToken.None);

        Assert.Equal(["log_1.trc", "log_2.trc, log_3.trc"], fleet["sales"].Transcript.TextsOf(TranscriptKinds.TraceRead).Order());
        Assert.Equal([Noon.AddHours(-1), Noon], second.GrowthEvents.Select(e => e.StartTime));
    }

    [Fact]
    public async Task A_watermark_file_that_aged_out_reads_the_whole_trace_again()
    {
        var instance = SalesServer();
        instance.DefaultTrace = new ScenarioDefaultTrace { MaxFiles = 2, EventsPerFile = 1 };
        await using var fleet = Fleets.Start(instance);
        var prober = ProberFactory.Create();
        var registration = ProberFactory.Registration(fleet["sales"]);

        await prober.PollAsync(registration, CancellationToken.None);
        instance.AppendGrowthEvent(new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Noon, DurationMicroseconds = 1_000_000 });
        instance.AppendGrowthEvent(new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Noon.AddMinutes(5), DurationMicroseconds = 1_000_000 });
        var second = await prober.PollAsync(registration, CancellationToken.None);

        // log_2.trc, current at the first poll, has rolled away: log_3 and log_4 are what the trace keeps.
        Assert.Equal(OutcomeClass.Ok, second.Probes.Single(p => p.Probe == ProbeNames.GrowthEvents).Outcome);
        Assert.Equal([Noon, Noon.AddMinutes(5)], second.GrowthEvents.Select(e => e.StartTime));
    }

    // The trace writes a growth's row when it ends: a long growth appears after a shorter one that started later.
    [Fact]
    public async Task Long_growth_that_ends_after_a_later_shorter_one_is_still_read()
    {
        var instance = SalesServer();
        await using var fleet = Fleets.Start(instance);
        var prober = ProberFactory.Create();
        var registration = ProberFactory.Registration(fleet["sales"]);
        instance.AppendGrowthEvent(new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Noon.AddMinutes(30), DurationMicroseconds = 2_000_000 });
        await prober.PollAsync(registration, CancellationToken.None);

        // Started at noon, zeroed for 45 minutes: its row is written at 12:45, after the 12:30 growth's.
        instance.AppendGrowthEvent(new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Noon, DurationMicroseconds = 2_700_000_000 });
        var second = await prober.PollAsync(registration, CancellationToken.None);

        Assert.Contains(second.GrowthEvents, e => e.StartTime == Noon && e.DurationMicroseconds == 2_700_000_000);
    }

    [Fact]
    public async Task Trace_path_from_sys_traces_is_read_through_its_base_file()
    {
        await using var fleet = Fleets.Start(SalesServer());

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        Assert.EndsWith(".trc", snapshot.DefaultTrace!.CurrentPath, StringComparison.Ordinal);
        Assert.Contains(fleet["sales"].Transcript.TextsOf("rpc"), sql => sql.Contains("fn_trace_gettable", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(@"C:\Program Files\Microsoft SQL Server\MSSQL15.MSSQLSERVER\MSSQL\Log\log_123.trc", @"C:\Program Files\Microsoft SQL Server\MSSQL15.MSSQLSERVER\MSSQL\Log\log.trc")]
    [InlineData("/var/opt/mssql/log/log_7.trc", "/var/opt/mssql/log/log.trc")]
    public void Base_trace_file_keeps_the_folder_and_the_platform_separator(string current, string expected) =>
        Assert.Equal(expected, TraceProbe.BaseTraceFile(current));

    [Fact]
    public async Task Disabled_default_trace_is_a_classified_state_not_an_error()
    {
        var instance = SalesServer();
        instance.DefaultTrace = new ScenarioDefaultTrace { Enabled = false };
        await using var fleet = Fleets.Start(instance);

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        Assert.Equal(OutcomeClass.TraceDisabled, snapshot.Probes.Single(p => p.Probe == ProbeNames.DefaultTrace).Outcome);
        Assert.False(snapshot.DefaultTrace!.Enabled);
        Assert.Empty(snapshot.GrowthEvents);
        Assert.Equal(IfiState.Disabled, IfiObservation.From(snapshot).State);
    }

    [Fact]
    public async Task Login_without_alter_trace_is_told_to_grant_it()
    {
        var instance = SalesServer();
        instance.Logins = [Fleets.LoginWith("VIEW SERVER STATE", "VIEW ANY DEFINITION")];
        await using var fleet = Fleets.Start(instance);

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        var trace = snapshot.Probes.Single(p => p.Probe == ProbeNames.DefaultTrace);
        Assert.Equal(OutcomeClass.PermissionMissing, trace.Outcome);
        Assert.Equal(8189, trace.SqlErrorNumber);
        Assert.Contains("Grant ALTER TRACE", trace.Message, StringComparison.Ordinal);
        Assert.Equal(OutcomeClass.Ok, snapshot.Probes.Single(p => p.Probe == ProbeNames.Services).Outcome);
    }

    [Fact]
    public async Task Latest_full_backup_per_database_is_read_from_msdb()
    {
        await using var fleet = Fleets.Start(SalesServer());

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sales"]), CancellationToken.None);

        var backup = Assert.Single(snapshot.Backups, b => b.DatabaseName == "Sales");
        Assert.Equal(21_474_836_480m, backup.BackupSizeBytes);
        Assert.Equal(6_000_000_000m, backup.CompressedSizeBytes);
    }
}
