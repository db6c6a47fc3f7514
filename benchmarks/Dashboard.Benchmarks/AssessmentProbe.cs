using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Globalization;
using Dapper;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store;
using IfiDashboard.Store.Ingestion;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Where the first assessment's time and memory go, measured in this process with the server's own builder: the
/// growth-event stream alone (SQLite and row mapping), then whole builds, with the bytes allocated and the bytes the
/// finished assessment keeps alive; then, on a copy of the store, incremental builds after 1 % of the instances got a
/// new poll (through SnapshotStore) and after a minute with no change, each compared by fingerprint with a build of
/// every instance at the same clock. A diagnostic (--probe-assessment), not one of the targets.
/// </summary>
internal static class AssessmentProbe
{
    public static async Task RunAsync(BenchmarkOptions options, Report report)
    {
        await using var provider = Services(options.StorePath, options.ProbeClock is { } clock ? new SettableClock(clock) : null);
        // A store seeded by an older build gets the columns this build reads.
        await provider.MigrateIfiStoreAsync();
        var facts = provider.GetRequiredService<FactsReader>();
        var builder = provider.GetRequiredService<FleetAssessmentBuilder>();

        var load = Machine.LoadAverage();
        var (streamed, streamTime, streamBytes) = await MeasureAsync(async () =>
        {
            long count = 0;
            await foreach (var (_, events) in facts.GrowthEventsByInstanceAsync(DateTimeOffset.UtcNow.AddDays(-90), null, CancellationToken.None))
                count += events.Count;
            return count;
        });
        report.Add($"diagnostic: stream {streamed} growth events from SQLite (no assessing)",
            $"{streamTime.TotalSeconds:F1} s, {streamBytes / 1048576.0:F0} MB allocated", "—", load);

        // Twice: the second build is the steady state (JIT done), and runs while the first one is still referenced,
        // as in the server, where pages hold the current assessment while the next one is built.
        load = Machine.LoadAverage();
        var before = Retained();
        var (first, firstTime, firstBytes) = await MeasureAsync(() => builder.RebuildAsync(CancellationToken.None));
        var kept = Retained() - before;
        report.Add("diagnostic: FleetAssessmentBuilder.RebuildAsync, first (in this process)",
            $"{firstTime.TotalSeconds:F1} s, {firstBytes / 1048576.0:F0} MB allocated, {kept / 1048576.0:F0} MB kept by the finished assessment",
            "—", load);
        load = Machine.LoadAverage();
        using var sampler = new HeapSampler();
        var (second, secondTime, secondBytes) = await MeasureAsync(() => builder.RebuildAsync(CancellationToken.None));
        report.Add("diagnostic: FleetAssessmentBuilder.RebuildAsync, second (in this process)",
            $"{secondTime.TotalSeconds:F1} s, {secondBytes / 1048576.0:F0} MB allocated, managed heap peak {sampler.PeakBytes / 1048576.0:F0} MB",
            "—", load);
        if (options.ProbeClock is not null)
            report.Add("diagnostic: assessment fingerprint (fixed clock; equal across builds of the code = same numbers)",
                AssessmentFingerprint.Of(second), "—", load);
        GC.KeepAlive(first);
        GC.KeepAlive(second);
        load = Machine.LoadAverage();
        var (afterRebuild, afterUnchanged) = await KeptFromBuildToBuildAsync(options);
        report.Add("diagnostic: managed heap a builder keeps after a build of every instance · then after an incremental build of the unchanged fleet",
            $"{afterRebuild / 1048576.0:F1} MB · {afterUnchanged / 1048576.0:F1} MB", "—", load);
        await ProbeIncrementalAsync(options, report);
    }

    /// <summary>
    /// On a copy of the store (the benchmark's stays as seeded): a build of every instance, then 1 % of the instances
    /// polled and an incremental build, then the clock a minute on and another; each incremental build is compared
    /// with a build of every instance at the same clock.
    /// </summary>
    static async Task ProbeIncrementalAsync(BenchmarkOptions options, Report report)
    {
        var copy = Path.Combine(Path.GetTempPath(), $"ifi-probe-{Guid.NewGuid():N}.db");
        try
        {
            await using (var source = new SqliteConnection($"Data Source={options.StorePath};Pooling=False"))
            {
                await source.OpenAsync();
                await source.ExecuteAsync("VACUUM INTO @copy;", new { copy });
            }
            var clock = new SettableClock(options.ProbeClock ?? DateTimeOffset.UtcNow);
            await using var provider = Services(copy, clock);
            var builder = provider.GetRequiredService<FleetAssessmentBuilder>();
            var snapshots = provider.GetRequiredService<SnapshotStore>();
            using var reassessed = new ReassessedInstances(provider.GetRequiredService<IMeterFactory>());

            const string activeSql = """
                SELECT i.id AS Id, i.name AS Name, s.last_poll_at AS LastPollAt
                FROM instances i LEFT JOIN instance_state s ON s.instance_id = i.id
                WHERE i.retired_at IS NULL;
                """;
            List<(long Id, string Name, string? LastPollAt)> active;
            await using (var connection = await provider.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
                active = (await connection.QueryAsync<(long Id, string Name, string? LastPollAt)>(activeSql)).ToList();
            // After the stored polls, so that the new ones are the instances' latest.
            var latest = active.Max(a => a.LastPollAt is { } at ? DateTimeOffset.Parse(at, CultureInfo.InvariantCulture) : DateTimeOffset.MinValue);
            if (latest >= clock.Now) clock.Now = latest.AddMinutes(1);

            var load = Machine.LoadAverage();
            var (_, fullTime, fullBytes) = await MeasureAsync(() => builder.RebuildAsync(CancellationToken.None));
            report.Add("diagnostic: build of every instance (the reference, on a copy of the store)",
                $"{fullTime.TotalSeconds:F2} s, {fullBytes / 1048576.0:F0} MB allocated", "—", load);

            var random = new Random(options.Seed + 2);
            var byName = active.ToDictionary(a => a.Name, a => a.Id);
            var polled = SyntheticFleet.Create(options.Instances, options.Events, options.Seed, clock.Now, options.Days)
                .Where(i => i.Index % 100 == 0 && byName.ContainsKey(i.Name))
                .ToList();
            foreach (var instance in polled)
                await snapshots.WriteAsync(SnapshotPlan.Next(instance, byName[instance.Name], clock.Now.AddSeconds(1), random),
                    CancellationToken.None);
            clock.Now = clock.Now.AddSeconds(5);
            await CompareAsync($"incremental build after {polled.Count} instances ({polled.Count * 100.0 / active.Count:F0} %) got a new poll");
            clock.Now = clock.Now.AddMinutes(1);
            await CompareAsync("incremental build a minute later, nothing changed");

            async Task CompareAsync(string what)
            {
                var before = reassessed.ByIncrementalBuilds;
                var stepLoad = Machine.LoadAverage();
                // CPU time as well as wall time: on a loaded machine the wall time says more about the others' work.
                var cpu = Process.GetCurrentProcess().TotalProcessorTime;
                var (incremental, time, bytes) = await MeasureAsync(() => builder.BuildAsync(CancellationToken.None));
                cpu = Process.GetCurrentProcess().TotalProcessorTime - cpu;
                var instances = reassessed.ByIncrementalBuilds - before;
                var reference = await builder.RebuildAsync(CancellationToken.None);
                var same = AssessmentFingerprint.Of(incremental) == AssessmentFingerprint.Of(reference);
                report.Add($"diagnostic: {what}",
                    $"{time.TotalMilliseconds:F0} ms ({cpu.TotalMilliseconds:F0} ms CPU), {bytes / 1048576.0:F1} MB allocated, " +
                    $"{instances} instances assessed again; " +
                    $"fingerprint {(same ? "equal to" : "DIFFERENT from")} a build of every instance", "—", stepLoad);
            }
        }
        finally
        {
            SqliteConnection.ClearAllPools();
            foreach (var file in new[] { copy, copy + "-wal", copy + "-shm" })
                File.Delete(file);
        }
    }

    /// <summary>
    /// What a server holds between builds once its fleet settles, with a builder of its own; the results are dropped
    /// at once, so only what the builder keeps for the next build stays.
    /// </summary>
    static async Task<(long AfterRebuild, long AfterUnchanged)> KeptFromBuildToBuildAsync(BenchmarkOptions options)
    {
        await using var provider = Services(options.StorePath, options.ProbeClock is { } clock ? new SettableClock(clock) : null);
        var builder = provider.GetRequiredService<FleetAssessmentBuilder>();
        var before = Retained();
        await builder.RebuildAsync(CancellationToken.None);
        var afterRebuild = Retained() - before;
        await builder.BuildAsync(CancellationToken.None);
        return (afterRebuild, Retained() - before);
    }

    static ServiceProvider Services(string storePath, TimeProvider? clock)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["Store:ConnectionString"] = $"Data Source={storePath}" })
            .Build();
        var services = new ServiceCollection();
        services.AddLogging();
        if (clock is not null)
            services.AddSingleton(clock);
        services.AddIfiStore(configuration);
        services.AddIfiCompliance(configuration);
        return services.BuildServiceProvider();
    }

    /// <summary>A clock the probe sets: fixed for the fingerprint, moved for the incremental builds.</summary>
    sealed class SettableClock(DateTimeOffset now) : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = now;

        public override DateTimeOffset GetUtcNow() => Now;
    }

    /// <summary>The managed heap's size after each GC, sampled every 20 ms: how high a build drives it.</summary>
    sealed class HeapSampler : IDisposable
    {
        readonly Timer _timer;
        long _peak;

        public HeapSampler() => _timer = new Timer(_ => Sample(), null, 0, 20);

        public long PeakBytes { get { Sample(); return Interlocked.Read(ref _peak); } }

        void Sample()
        {
            var size = GC.GetGCMemoryInfo(GCKind.Any).HeapSizeBytes;
            long current;
            while (size > (current = Interlocked.Read(ref _peak)) && Interlocked.CompareExchange(ref _peak, size, current) != current) { }
        }

        public void Dispose() => _timer.Dispose();
    }

    static async Task<(T Result, TimeSpan Elapsed, long Allocated)> MeasureAsync<T>(Func<Task<T>> action)
    {
        var allocated = GC.GetTotalAllocatedBytes(precise: true);
        var clock = Stopwatch.StartNew();
        var result = await action();
        return (result, clock.Elapsed, GC.GetTotalAllocatedBytes(precise: true) - allocated);
    }

    static long Retained()
    {
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
        return GC.GetTotalMemory(forceFullCollection: false);
    }
}
