using System.Collections.Concurrent;
using System.Diagnostics;
using IfiDashboard.Store;
using Dapper;
using Npgsql;
using IfiDashboard.Server.Store;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// What ingestion writes: a current-state list (files, TDE, backups) only where the poll saw something else than the
/// stored rows, a row's <c>seen_poll_id</c> telling which poll last wrote it; growth events of one poll in as few
/// statements as the provider allows, each stored once.
/// </summary>
public sealed class IngestionWritesTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static DatabaseFileInfo File(int databaseId, int fileId, int sizePages = 1_280_000) => new()
    {
        DatabaseId = databaseId, DatabaseName = $"db{databaseId}", FileId = fileId, LogicalName = $"db{databaseId}_{fileId}",
        PhysicalName = $@"D:\Data\db{databaseId}_{fileId}.mdf", Type = 0, SizePages = sizePages, Growth = 8192,
    };

    static InstanceSnapshot Read(InstanceSnapshot snapshot, IReadOnlyList<DatabaseFileInfo> files, IReadOnlyList<GrowthEventInfo>? events = null) =>
        snapshot with
        {
            Probes = [.. snapshot.Probes,
                new ProbeOutcome(ProbeNames.Files, OutcomeClass.Ok),
                new ProbeOutcome(ProbeNames.Encryption, OutcomeClass.Ok),
                new ProbeOutcome(ProbeNames.Backups, OutcomeClass.Ok),
                new ProbeOutcome(ProbeNames.GrowthEvents, OutcomeClass.Ok)],
            Files = files,
            Encryption = [new DatabaseEncryptionInfo(5, 3), new DatabaseEncryptionInfo(6, 0)],
            Backups = [new BackupInfo("db5", new DateTime(2026, 5, 2, 23, 0, 0), 10_485_760_000m, null)],
            GrowthEvents = events ?? [],
        };

    static GrowthEventInfo Growth(int n) => new()
    {
        EventClass = n % 10 == 0 ? 93 : 92, DatabaseId = 5, DatabaseName = "db5", FileName = $"db5_{n % 4}",
        StartTime = TestStore.Start.AddHours(-12).AddSeconds(n), StartTimeLocal = new DateTime(2026, 5, 3, 0, 0, 0).AddSeconds(n),
        EndTime = TestStore.Start.AddHours(-12).AddSeconds(n).AddMilliseconds(250), DurationMicroseconds = 250_000 + n,
        GrowthPages = 8192,
    };

    static async Task<(TestStore Store, long Id)> StoreWithInstanceAsync(StoreProvider provider)
    {
        var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        return (store, id);
    }

    static async Task<List<long>> PollIdsAsync(TestStore store)
    {
        await using var connection = await store.OpenAsync();
        return [.. await connection.QueryAsync<long>("SELECT id FROM polls ORDER BY id;")];
    }

    static async Task<List<(long DatabaseId, long FileId, long SizePages, long SeenPollId)>> FilesAsync(TestStore store)
    {
        await using var connection = await store.OpenAsync();
        return [.. await connection.QueryAsync<(long, long, long, long)>(
            "SELECT database_id, file_id, size_pages, seen_poll_id FROM database_files ORDER BY database_id, file_id;")];
    }

    static async Task<List<long>> SeenPollIdsAsync(TestStore store, string table)
    {
        await using var connection = await store.OpenAsync();
        return [.. await connection.QueryAsync<long>($"SELECT seen_poll_id FROM {table};")];
    }

    static readonly DatabaseFileInfo[] Files = [File(5, 1), File(5, 2), File(6, 1), File(6, 2)];

    [Theory, StoreProviders]
    public async Task A_poll_that_reads_the_same_files_rewrites_no_row(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;

        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start), Files), None);
        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start.AddMinutes(5)), [.. Files.Reverse()]), None);

        var first = (await PollIdsAsync(store))[0];
        Assert.Equal(4, (await FilesAsync(store)).Count);
        Assert.All(await FilesAsync(store), f => Assert.Equal(first, f.SeenPollId));
        Assert.Equal([first, first], await SeenPollIdsAsync(store, "database_encryption"));
        Assert.Equal([first], await SeenPollIdsAsync(store, "database_backups"));
    }

    [Theory, StoreProviders]
    public async Task A_file_that_grew_is_the_one_row_written(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;

        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start), Files), None);
        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start.AddMinutes(5)),
            [Files[0], File(5, 2, sizePages: 1_288_192), Files[2], Files[3]]), None);

        var polls = await PollIdsAsync(store);
        Assert.Equal(
            [(5L, 1L, 1_280_000L, polls[0]), (5L, 2L, 1_288_192L, polls[1]), (6L, 1L, 1_280_000L, polls[0]), (6L, 2L, 1_280_000L, polls[0])],
            await FilesAsync(store));
        // What the assessment reads is the new size.
        var read = Assert.Single((await new IfiDashboard.Store.Facts.FactsReader(store.Connections).FilesAsync([id], None))[id],
            f => f.LogicalName == "db5_2");
        Assert.Equal(1_288_192, read.SizePages);
    }

    [Theory, StoreProviders]
    public async Task A_file_no_longer_read_is_deleted_and_a_new_one_added(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;

        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start), Files), None);
        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start.AddMinutes(5)),
            [Files[0], Files[2], Files[3], File(7, 1)]), None);

        var polls = await PollIdsAsync(store);
        Assert.Equal(
            [(5L, 1L, 1_280_000L, polls[0]), (6L, 1L, 1_280_000L, polls[0]), (6L, 2L, 1_280_000L, polls[0]), (7L, 1L, 1_280_000L, polls[1])],
            await FilesAsync(store));
    }

    [Theory, StoreProviders]
    public async Task Five_hundred_growth_events_of_one_poll_are_stored_each_once(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        var events = Enumerable.Range(0, 500).Select(Growth).ToList();

        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start), Files, events), None);
        // The next poll re-reads the same trace and one event more.
        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start.AddMinutes(5)), Files, [.. events, Growth(500)]), None);

        var polls = await PollIdsAsync(store);
        await using var connection = await store.OpenAsync();
        Assert.Equal(501, await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM growth_events;"));
        Assert.Equal(500, await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM growth_events WHERE first_poll_id = @poll;", new { poll = polls[0] }));
        var row = await connection.QuerySingleAsync<(string DatabaseName, string FileName, long EventClass, string Start, string Local, string End, long Duration, long Pages)>(
            "SELECT database_name, file_name, event_class, start_time, start_time_local, end_time, duration_us, growth_pages FROM growth_events WHERE duration_us = 250010;");
        Assert.Equal(("db5", "db5_2", 93L, "2026-05-02T20:00:10.0000000Z", "2026-05-03T00:00:10.0000000", "2026-05-02T20:00:10.2500000Z", 250_010L, 8192L), row);
    }

    [Theory, StoreProviders]
    public async Task Growth_events_beyond_what_one_SQLite_statement_takes_are_all_stored(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        var count = RowLists.SqliteMaxParameters / 11 + 100;

        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start), Files, [.. Enumerable.Range(0, count).Select(Growth)]), None);

        await using var connection = await store.OpenAsync();
        Assert.Equal(count, await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM growth_events;"));
    }

    [Theory, StoreProviders]
    public async Task A_polls_probe_outcomes_and_services_are_stored_in_their_order(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        var snapshot = TestData.Good(id, TestStore.Start) with
        {
            Probes = [.. TestData.Good(id, TestStore.Start).Probes, new ProbeOutcome(ProbeNames.Files, OutcomeClass.PermissionMissing, "VIEW ANY DEFINITION was denied.", 300)],
        };

        await store.Snapshots.WriteAsync(snapshot, None);

        await using var connection = await store.OpenAsync();
        var probes = (await connection.QueryAsync<(string Probe, string Outcome, string? Message, long? Error)>(
            "SELECT probe, outcome, message, sql_error_number FROM probe_outcomes ORDER BY id;")).ToList();
        Assert.Equal(snapshot.Probes.Select(p => (p.Probe, p.Outcome.ToString(), p.Message, (long?)p.SqlErrorNumber)), probes);
        var services = (await connection.QueryAsync<(string Name, long ProcessId, string? Started, string? Clustered)>(
            "SELECT service_name, process_id, last_startup_time, is_clustered FROM service_snapshots ORDER BY id;")).ToList();
        Assert.Equal([("SQL Server (MSSQLSERVER)", 4242L, "2026-04-01T06:00:00.0000000Z", null), ("SQL Server Agent (MSSQLSERVER)", 4343L, null, null)],
            services);
    }

    [Theory, StoreProviders]
    public async Task A_polls_state_count_trace_and_cluster_are_written_in_one_statement(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        var first = TestData.Good(id, TestStore.Start);
        InstanceSnapshot Traced(InstanceSnapshot snapshot, DateTimeOffset oldest, bool clustered) => snapshot with
        {
            Identity = snapshot.Identity! with { IsClustered = clustered },
            ClusterNodes = clustered ? ["NODE1", "NODE2"] : null,
            ServerUtcOffsetMinutes = 60,
            DefaultTrace = new DefaultTraceState(true, @"D:\MSSQL\Log\log_412.trc", 0) { OldestEventAt = oldest },
            Probes = [.. snapshot.Probes, new ProbeOutcome(ProbeNames.GrowthEvents, OutcomeClass.Ok)],
        };
        await store.Snapshots.WriteAsync(Traced(first, TestStore.Start.AddDays(-3), clustered: true), None);

        using var sent = new SentStatements(store);
        await store.Snapshots.WriteAsync(Traced(TestData.Good(id, TestStore.Start.AddMinutes(5)), TestStore.Start.AddDays(-1), clustered: false), None);

        if (provider == StoreProvider.Postgres)
            // A batch's text holds its statements one after the other.
            Assert.Equal(["SELECT", "INSERT"], sent.Texts.SelectMany(text => text.Split(';'))
                .Where(statement => statement.Contains("instance_state", StringComparison.Ordinal))
                .Select(statement => statement.TrimStart().Split(' ', 2)[0]));
        await using var connection = await store.OpenAsync();
        var state = await connection.QuerySingleAsync<(long Polls, string Trace, long Offset, string EvidenceSince, long Clustered, string? Nodes)>(
            "SELECT polls_stored, default_trace, server_utc_offset_minutes, evidence_since, is_clustered, cluster_nodes FROM instance_state WHERE instance_id = @id;",
            new { id });
        // The earliest evidence is kept; a poll that reads the instance unclustered clears the nodes.
        Assert.Equal((2L, "Enabled", 60L, StoreTime.ToText(TestStore.Start.AddDays(-3)), 0L, (string?)null), state);
    }

    [Theory, StoreProviders]
    public async Task A_poll_goes_to_PostgreSQL_in_three_round_trips_its_lock_its_reads_and_its_writes(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start), Files, [Growth(1)]), None);

        using var sent = new SentStatements(store);
        await store.Snapshots.WriteAsync(Read(TestData.Good(id, TestStore.Start.AddMinutes(5)), [File(5, 1, 1_400_000), File(5, 2), File(6, 1)],
            [Growth(2), Growth(3)]), None);

        if (provider == StoreProvider.Postgres)
            Assert.Equal(3, sent.Texts.Count);
        // All of it stored, as one statement at a time stored it.
        Assert.Equal([(5L, 1L, 1_400_000L), (5L, 2L, 1_280_000L), (6L, 1L, 1_280_000L)],
            (await FilesAsync(store)).Select(f => (f.DatabaseId, f.FileId, f.SizePages)));
        await using var connection = await store.OpenAsync();
        var counts = await connection.QuerySingleAsync<(long Polls, long Probes, long Events, long PollsStored)>("""
            SELECT (SELECT COUNT(*) FROM polls), (SELECT COUNT(*) FROM probe_outcomes), (SELECT COUNT(*) FROM growth_events),
                   (SELECT polls_stored FROM instance_state WHERE instance_id = @id);
            """, new { id });
        var probesPerPoll = Read(TestData.Good(id, TestStore.Start), Files).Probes.Count;
        Assert.Equal((2L, 2L * probesPerPoll, 3L, 2L), counts);
    }

    /// <summary>The statements Npgsql sends to one test's database, from its ActivitySource (none on SQLite).</summary>
    sealed class SentStatements : IDisposable
    {
        readonly ActivityListener _listener;

        public SentStatements(TestStore store)
        {
            var database = store.Connections.Dialect.IsPostgres ? new NpgsqlConnectionStringBuilder(store.Database.ConnectionString).Database : null;
            _listener = new ActivityListener
            {
                ShouldListenTo = source => source.Name == "Npgsql",
                Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
                ActivityStopped = activity =>
                {
                    if (database is not null && Equals(activity.GetTagItem("db.namespace"), database)
                        && activity.GetTagItem("db.query.text") is string text)
                        Texts.Enqueue(text);
                },
            };
            ActivitySource.AddActivityListener(_listener);
        }

        public ConcurrentQueue<string> Texts { get; } = new();

        public void Dispose() => _listener.Dispose();
    }
}
