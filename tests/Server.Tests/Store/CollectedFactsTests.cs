using IfiDashboard.Store.Facts;
using Dapper;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>Files, TDE, growth events and backups as ingestion stores them.</summary>
public sealed class CollectedFactsTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static InstanceSnapshot WithFacts(InstanceSnapshot snapshot, IReadOnlyList<GrowthEventInfo> events,
        bool filesOk = true, int dataPages = 1_280_000) => snapshot with
    {
        Probes = [.. snapshot.Probes,
            new ProbeOutcome(ProbeNames.Files, filesOk ? OutcomeClass.Ok : OutcomeClass.PermissionMissing),
            new ProbeOutcome(ProbeNames.Encryption, OutcomeClass.Ok),
            new ProbeOutcome(ProbeNames.DefaultTrace, OutcomeClass.Ok),
            new ProbeOutcome(ProbeNames.GrowthEvents, OutcomeClass.Ok),
            new ProbeOutcome(ProbeNames.Backups, OutcomeClass.Ok)],
        Files = filesOk
            ?
            [
                new DatabaseFileInfo { DatabaseId = 5, DatabaseName = "Sales", FileId = 1, LogicalName = "Sales", PhysicalName = @"D:\Data\Sales.mdf", Type = 0, SizePages = dataPages, Growth = 8192 },
                new DatabaseFileInfo { DatabaseId = 5, DatabaseName = "Sales", FileId = 2, LogicalName = "Sales_log", PhysicalName = @"L:\Log\Sales.ldf", Type = 1, SizePages = 64_000, Growth = 10, IsPercentGrowth = true },
            ]
            : [],
        Encryption = [new DatabaseEncryptionInfo(5, 3)],
        DefaultTrace = new DefaultTraceState(true, @"C:\MSSQL\Log\log_41.trc", events.Count),
        GrowthEvents = events,
        Backups = [new BackupInfo("Sales", new DateTime(2026, 5, 2, 23, 0, 0), 10_485_760_000m, 3_000_000_000m)],
        ServerUtcOffsetMinutes = 120,
    };

    static GrowthEventInfo Growth(DateTimeOffset at, long durationUs = 2_500_000) => new()
    {
        EventClass = 92, DatabaseId = 5, DatabaseName = "Sales", FileName = "Sales", StartTime = at,
        EndTime = at.AddTicks(durationUs * 10), DurationMicroseconds = durationUs, GrowthPages = 8192,
    };

    [Theory, StoreProviders]
    public async Task Rereading_a_rolled_over_trace_stores_each_growth_event_once(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var first = Growth(TestStore.Start.AddHours(-3));
        var second = Growth(TestStore.Start.AddHours(-2));
        var third = Growth(TestStore.Start.AddHours(-1));

        await store.Snapshots.WriteAsync(WithFacts(TestData.Good(id, TestStore.Start), [first, second]), None);
        await store.Snapshots.WriteAsync(WithFacts(TestData.Good(id, TestStore.Start.AddMinutes(5)), [first, second, third]), None);

        await using var connection = await store.OpenAsync();
        var starts = (await connection.QueryAsync<string>("SELECT start_time FROM growth_events ORDER BY start_time;")).ToList();
        Assert.Equal(["2026-05-03T05:00:00.0000000Z", "2026-05-03T06:00:00.0000000Z", "2026-05-03T07:00:00.0000000Z"], starts);
        Assert.Equal(2_500_000, await connection.ExecuteScalarAsync<long>("SELECT duration_us FROM growth_events LIMIT 1;"));
    }

    [Theory, StoreProviders]
    public async Task Files_are_replaced_by_a_poll_that_read_them_and_kept_by_one_that_could_not(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);

        await store.Snapshots.WriteAsync(WithFacts(TestData.Good(id, TestStore.Start), [], dataPages: 1000), None);
        await store.Snapshots.WriteAsync(WithFacts(TestData.Good(id, TestStore.Start.AddMinutes(5)), [], dataPages: 2000), None);
        await store.Snapshots.WriteAsync(WithFacts(TestData.Good(id, TestStore.Start.AddMinutes(10)), [], filesOk: false), None);

        await using var connection = await store.OpenAsync();
        var sizes = (await connection.QueryAsync<long>("SELECT size_pages FROM database_files WHERE type = 0;")).ToList();
        Assert.Equal([2000L], sizes);
        Assert.Equal(2, await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM database_files;"));
    }

    [Theory, StoreProviders]
    public async Task The_volume_each_file_lives_on_is_stored_and_read_back_for_the_engine(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var mounted = new FileVolumeInfo
        {
            MountPoint = @"C:\MountPoints\Data1\", VolumeId = @"\\?\Volume{0b3e2c1a-0000-0000-0000-000000000001}\",
            LogicalVolumeName = "Data1", TotalBytes = 2_199_023_255_552, AvailableBytes = 1_099_511_627_776,
        };
        var snapshot = WithFacts(TestData.Good(id, TestStore.Start), []);
        snapshot = snapshot with
        {
            Files = [snapshot.Files[0] with { PhysicalName = @"C:\MountPoints\Data1\Sales.mdf", Volume = mounted }, snapshot.Files[1]],
            Probes = [.. snapshot.Probes, new ProbeOutcome(ProbeNames.Volumes, OutcomeClass.Ok)],
        };

        await store.Snapshots.WriteAsync(snapshot, None);

        await using var connection = await store.OpenAsync();
        var stored = await connection.QuerySingleAsync<(string MountPoint, string VolumeId, string Name)>(
            "SELECT volume_mount_point, volume_id, volume_name FROM database_files WHERE file_id = 1;");
        Assert.Equal((mounted.MountPoint, mounted.VolumeId, "Data1"), stored);
        var files = (await new FactsReader(store.Connections).FilesAsync([id], None))[id].ToDictionary(f => f.LogicalName);
        Assert.Equal(new FileVolumeFacts(@"C:\MountPoints\Data1\", 2_199_023_255_552, 1_099_511_627_776), files["Sales"].Volume);
        Assert.Null(files["Sales_log"].Volume);
    }

    [Theory, StoreProviders]
    public async Task Encryption_backups_trace_and_clock_are_current_state(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);

        await store.Snapshots.WriteAsync(WithFacts(TestData.Good(id, TestStore.Start), []), None);

        await using var connection = await store.OpenAsync();
        Assert.Equal(3, await connection.ExecuteScalarAsync<long>("SELECT encryption_state FROM database_encryption WHERE database_id = 5;"));
        Assert.Equal(10_485_760_000L, await connection.ExecuteScalarAsync<long>("SELECT backup_size_bytes FROM database_backups WHERE database_name = 'Sales';"));
        var state = await connection.QuerySingleAsync<(string Trace, long Offset)>(
            "SELECT default_trace, server_utc_offset_minutes FROM instance_state WHERE instance_id = @id;", new { id });
        Assert.Equal(("Enabled", 120L), state);
    }

    [Theory, StoreProviders]
    public async Task Late_snapshot_adds_its_events_but_does_not_replace_newer_files(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var lateEvent = Growth(TestStore.Start.AddHours(-5));

        await store.Snapshots.WriteAsync(WithFacts(TestData.Good(id, TestStore.Start.AddMinutes(10)), [], dataPages: 3000), None);
        await store.Snapshots.WriteAsync(WithFacts(TestData.Good(id, TestStore.Start), [lateEvent], dataPages: 1000), None);

        await using var connection = await store.OpenAsync();
        Assert.Equal(3000, await connection.ExecuteScalarAsync<long>("SELECT size_pages FROM database_files WHERE type = 0;"));
        Assert.Equal(1, await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM growth_events;"));
    }
}
