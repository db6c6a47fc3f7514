using Dapper;
using IfiDashboard.Store;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Retention;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>
/// A migrated SQLite file store with retention wired as the server wires it: ingestion through a snapshot store that
/// knows the retention horizon, and a pruner the test runs by hand while it moves the fake clock.
/// </summary>
internal sealed class RetentionBed : IAsyncDisposable
{
    RetentionBed(TestStore store, RetentionOptions options, ILogger<RetentionPruner> logger)
    {
        Store = store;
        Options = options;
        var wrapped = Microsoft.Extensions.Options.Options.Create(options);
        var horizon = new RetentionHorizon(wrapped, store.Clock);
        Snapshots = new SnapshotStore(store.Connections, horizon);
        Pruner = new RetentionPruner(store.Connections, wrapped, horizon, new RetentionLease(store.Connections, store.Clock), store.Audit, store.Clock, logger);
    }

    public TestStore Store { get; }

    /// <summary>The options the pruner reads on every pass: a test may change them between passes.</summary>
    public RetentionOptions Options { get; }

    public SnapshotStore Snapshots { get; }
    public RetentionPruner Pruner { get; }
    public FakeTimeProvider Clock => Store.Clock;

    /// <summary>Retention with the product's defaults, except no pause between batches (nothing to wait for here).</summary>
    public static async Task<RetentionBed> CreateAsync(StoreProvider provider, Action<RetentionOptions>? configure = null,
        ILogger<RetentionPruner>? logger = null)
    {
        var options = new RetentionOptions { BatchPauseMilliseconds = 0 };
        configure?.Invoke(options);
        return new RetentionBed(await TestStore.CreateMigratedAsync(provider), options, logger ?? NullLogger<RetentionPruner>.Instance);
    }

    public Task<long> AddInstanceAsync(string name) =>
        Store.Instances.AddAsync(TestData.Registration(name), CancellationToken.None);

    public Task WriteAsync(InstanceSnapshot snapshot) => Snapshots.WriteAsync(snapshot, CancellationToken.None);

    public Task<RetentionReport> PruneAsync() => Pruner.PruneOnceAsync(CancellationToken.None);

    /// <summary>The pruner of a second server on the same store: same options and clock, a lease holder of its own.</summary>
    public RetentionPruner SecondServerPruner()
    {
        var wrapped = Microsoft.Extensions.Options.Options.Create(Options);
        return new RetentionPruner(Store.Connections, wrapped, new RetentionHorizon(wrapped, Clock),
            new RetentionLease(Store.Connections, Clock), Store.Audit, Clock, NullLogger<RetentionPruner>.Instance);
    }

    public async Task<long> CountAsync(string sql, object? parameters = null)
    {
        await using var connection = await Store.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(sql, parameters);
    }

    /// <summary>Start times of the instance's stored polls, oldest first, as day offsets from <see cref="TestStore.Start"/>.</summary>
    public async Task<List<int>> PollDaysAsync(long instanceId)
    {
        await using var connection = await Store.OpenAsync();
        var starts = await connection.QueryAsync<string>(
            "SELECT started_at FROM polls WHERE instance_id = @instanceId ORDER BY started_at;", new { instanceId });
        return starts.Select(s => (int)Math.Round((StoreTime.Parse(s) - TestStore.Start).TotalDays)).ToList();
    }

    /// <summary>Rows whose poll is gone: there must never be any (foreign keys would refuse them anyway).</summary>
    public Task<long> OrphansAsync() => CountAsync("""
        SELECT (SELECT COUNT(*) FROM probe_outcomes o WHERE NOT EXISTS (SELECT 1 FROM polls p WHERE p.id = o.poll_id))
             + (SELECT COUNT(*) FROM service_snapshots s WHERE NOT EXISTS (SELECT 1 FROM polls p WHERE p.id = s.poll_id));
        """);

    public async ValueTask DisposeAsync() => await Store.DisposeAsync();
}
