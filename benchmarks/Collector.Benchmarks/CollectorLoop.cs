using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Scheduling;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// The real collector path: CollectorService leasing from memory, InstanceProber polling, a counting sink. A fresh
/// prober per phase starts with empty growth watermarks, as the bare loop does, so both read the same rows.
/// </summary>
internal static class CollectorLoop
{
    public static async Task<PhaseResult> RunAsync(PollPlan plan, BenchmarkSetup setup, FleetHost fleet, SqlTimings? timings = null)
    {
        var options = setup.CollectorOptions;
        var prober = new InstanceProber(setup.ConnectionStrings, options, new GrowthWatermarks(), TimeProvider.System);
        var source = new InMemoryInstanceSource(plan.Instances, plan.Repeats);
        var sink = new CountingSnapshotSink(plan.Repeats ? int.MaxValue : plan.Instances.Count);
        using var metrics = new CollectorMetrics();
        using var service = new CollectorService(source, prober, sink, options, metrics, new CollectorWakeUp(), TimeProvider.System,
            NullLogger<CollectorService>.Instance);

        timings?.Reset();
        await using var meter = new PhaseMeter(fleet);
        await service.StartAsync(CancellationToken.None);
        if (plan.Duration is { } duration) await Task.Delay(duration);
        else await sink.AllWritten;
        var measurement = meter.Stop();
        sink.Close();
        var breakdown = timings?.Snapshot();
        await service.StopAsync(CancellationToken.None);

        if (sink.FirstFailure is { } failure) Console.Error.WriteLine($"collector: {sink.Failures} failed polls, e.g. {failure}");
        return new PhaseResult("collector", sink.Count, sink.Failures, measurement, sink.Latencies, breakdown);
    }
}
