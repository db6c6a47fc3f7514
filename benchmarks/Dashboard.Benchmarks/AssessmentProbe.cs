using System.Diagnostics;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Server.Store;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Where the first assessment's time and memory go, measured in this process with the server's own builder: the
/// growth-event stream alone (SQLite and row mapping), then whole builds, with the bytes allocated and the bytes the
/// finished assessment keeps alive. A diagnostic (--probe-assessment), not one of the targets.
/// </summary>
internal static class AssessmentProbe
{
    public static async Task RunAsync(BenchmarkOptions options, Report report)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["Store:ConnectionString"] = $"Data Source={options.StorePath}" })
            .Build();
        var services = new ServiceCollection();
        services.AddLogging();
        if (options.ProbeClock is { } clock)
            services.AddSingleton<TimeProvider>(new FixedClock(clock));
        services.AddIfiStore(configuration);
        services.AddIfiCompliance(configuration);
        await using var provider = services.BuildServiceProvider();
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
        var (first, firstTime, firstBytes) = await MeasureAsync(() => builder.BuildAsync(CancellationToken.None));
        var kept = Retained() - before;
        report.Add("diagnostic: FleetAssessmentBuilder.BuildAsync, first (in this process)",
            $"{firstTime.TotalSeconds:F1} s, {firstBytes / 1048576.0:F0} MB allocated, {kept / 1048576.0:F0} MB kept by the finished assessment",
            "—", load);
        load = Machine.LoadAverage();
        using var sampler = new HeapSampler();
        var (second, secondTime, secondBytes) = await MeasureAsync(() => builder.BuildAsync(CancellationToken.None));
        report.Add("diagnostic: FleetAssessmentBuilder.BuildAsync, second (in this process)",
            $"{secondTime.TotalSeconds:F1} s, {secondBytes / 1048576.0:F0} MB allocated, managed heap peak {sampler.PeakBytes / 1048576.0:F0} MB",
            "—", load);
        if (options.ProbeClock is not null)
            report.Add("diagnostic: assessment fingerprint (fixed clock; equal across builds of the code = same numbers)",
                AssessmentFingerprint.Of(second), "—", load);
        GC.KeepAlive(first);
        GC.KeepAlive(second);
    }

    sealed class FixedClock(DateTimeOffset now) : TimeProvider
    {
        public override DateTimeOffset GetUtcNow() => now;
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
