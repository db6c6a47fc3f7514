using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using IfiDashboard.Collector.Telemetry;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Scheduling;

/// <summary>Poll counters, as .NET metrics (meter "IfiDashboard.Collector") and as totals the UI can show.</summary>
public sealed class CollectorMetrics : IDisposable
{
    readonly Meter _meter = new(CollectorTelemetry.Name);
    readonly Counter<long> _polls;
    readonly Histogram<double> _durations;
    readonly ConcurrentDictionary<OutcomeClass, long> _byOutcome = new();
    long _total;

    public CollectorMetrics()
    {
        _polls = _meter.CreateCounter<long>("ifidashboard.collector.polls", description: "Polls finished, by outcome");
        _durations = _meter.CreateHistogram<double>("ifidashboard.collector.poll.duration", "ms", "Duration of one instance poll");
    }

    public long TotalPolls => Interlocked.Read(ref _total);
    public IReadOnlyDictionary<OutcomeClass, long> PollsByOutcome => _byOutcome;

    public void Record(InstanceSnapshot snapshot)
    {
        var outcome = snapshot.Overall.Outcome;
        Interlocked.Increment(ref _total);
        _byOutcome.AddOrUpdate(outcome, 1, (_, n) => n + 1);
        _polls.Add(1, new KeyValuePair<string, object?>("outcome", outcome.ToString()));
        _durations.Record((snapshot.FinishedAt - snapshot.StartedAt).TotalMilliseconds);
    }

    public void Dispose() => _meter.Dispose();
}
