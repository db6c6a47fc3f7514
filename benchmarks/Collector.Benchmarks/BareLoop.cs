using System.Diagnostics;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// The yardstick: N workers taking the next instance from a shared counter and running <see cref="BarePoll"/>.
/// Connection strings are built once up front, as a plain loop would.
/// </summary>
internal static class BareLoop
{
    public static async Task<PhaseResult> RunAsync(PollPlan plan, BenchmarkSetup setup, FleetHost fleet, SqlTimings? timings = null,
        bool openOnly = false)
    {
        var instances = plan.Instances;
        var connectionStrings = instances.Select(setup.ConnectionStrings.Build).ToArray();
        var poll = new BarePoll(setup.CollectorOptions.CommandTimeoutSeconds, setup.AnonymousParameters);
        var watermarks = new BareWatermarks();
        var latencies = new LatencyRecorder();
        var next = -1;
        var polls = 0;
        var failures = 0;
        string? firstFailure = null;
        using var stopping = new CancellationTokenSource();
        var measuring = true;

        timings?.Reset();
        await using var meter = new PhaseMeter(fleet);
        if (plan.Duration is { } duration) stopping.CancelAfter(duration);
        var workers = Enumerable.Range(0, setup.Concurrency).Select(_ => Task.Run(async () =>
        {
            while (!stopping.IsCancellationRequested)
            {
                var index = Interlocked.Increment(ref next);
                if (!plan.Repeats && index >= instances.Count) return;
                index %= instances.Count;
                var started = Stopwatch.GetTimestamp();
                try
                {
                    var answered = await poll.RunAsync(connectionStrings[index], watermarks, instances[index].Id, openOnly, stopping.Token);
                    if (!Volatile.Read(ref measuring)) return;
                    latencies.Record(Stopwatch.GetElapsedTime(started, answered).TotalMilliseconds);
                    Interlocked.Increment(ref polls);
                }
                catch (OperationCanceledException) when (stopping.IsCancellationRequested)
                {
                    return;
                }
                catch (Exception e)
                {
                    if (!Volatile.Read(ref measuring)) return;
                    Interlocked.Increment(ref polls);
                    Interlocked.Increment(ref failures);
                    Interlocked.CompareExchange(ref firstFailure, $"{instances[index].Name}: {e.GetType().Name}: {e.Message}", null);
                }
            }
        })).ToArray();

        Measurement measurement;
        if (plan.Repeats)
        {
            try { await Task.Delay(Timeout.Infinite, stopping.Token); } catch (OperationCanceledException) { }
            measurement = meter.Stop();
            Volatile.Write(ref measuring, false);
        }
        else
        {
            await Task.WhenAll(workers);
            measurement = meter.Stop();
        }
        var count = Volatile.Read(ref polls);
        var breakdown = timings?.Snapshot();
        await Task.WhenAll(workers);

        if (firstFailure is not null) Console.Error.WriteLine($"bare: {failures} failed polls, e.g. {firstFailure}");
        return new PhaseResult(openOnly ? "bare, open only" : "bare", count, failures, measurement, latencies, breakdown);
    }
}
