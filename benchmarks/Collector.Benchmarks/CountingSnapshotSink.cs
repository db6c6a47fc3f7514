using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// Counts snapshots instead of storing them, and records each poll's latency as the snapshot states it (connect
/// start to the last probe's answer). Snapshots that arrive after <see cref="Close"/> belong to no measurement.
/// </summary>
internal sealed class CountingSnapshotSink(int expected) : ISnapshotSink
{
    readonly TaskCompletionSource _allWritten = new(TaskCreationOptions.RunContinuationsAsynchronously);
    int _count;
    int _failures;
    volatile bool _closed;

    public LatencyRecorder Latencies { get; } = new();
    public int Count => Volatile.Read(ref _count);
    public int Failures => Volatile.Read(ref _failures);
    public Task AllWritten => _allWritten.Task;
    public string? FirstFailure { get; private set; }

    public Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        if (_closed) return Task.CompletedTask;
        Latencies.Record((snapshot.FinishedAt - snapshot.StartedAt).TotalMilliseconds);
        // Old builds (no IFI column), cloud instances and a disabled trace are answers, not failures.
        var worst = snapshot.Overall;
        if (worst.Outcome.Severity() > OutcomeClass.BuildTooOld.Severity())
        {
            Interlocked.Increment(ref _failures);
            FirstFailure ??= $"{worst.Probe} {worst.Outcome}: {worst.Message}";
        }
        if (Interlocked.Increment(ref _count) == expected) _allWritten.TrySetResult();
        return Task.CompletedTask;
    }

    public void Close() => _closed = true;
}
