using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.Data.SqlClient.Diagnostics;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// Splits poll time into connection open (TCP, PRELOGIN, TLS handshake, LOGIN7) and command execution (send to
/// first result), from SqlClient's DiagnosticListener. The rest of a poll is reading rows, mapping and whatever
/// the caller builds. Subscribing costs a little on every call, so only the --breakdown phases turn it on.
/// </summary>
internal sealed class SqlTimings : IObserver<DiagnosticListener>, IObserver<KeyValuePair<string, object?>>, IDisposable
{
    readonly ConcurrentDictionary<Guid, long> _started = new();
    readonly IDisposable _allListeners;
    readonly List<IDisposable> _subscriptions = [];
    long _openTicks, _opens, _commandTicks, _commands;

    public SqlTimings() => _allListeners = DiagnosticListener.AllListeners.Subscribe(this);

    public sealed record Totals(long Opens, TimeSpan Open, long Commands, TimeSpan Command);

    public void Reset()
    {
        Interlocked.Exchange(ref _openTicks, 0);
        Interlocked.Exchange(ref _opens, 0);
        Interlocked.Exchange(ref _commandTicks, 0);
        Interlocked.Exchange(ref _commands, 0);
    }

    public Totals Snapshot() => new(
        Interlocked.Read(ref _opens), Stopwatch.GetElapsedTime(0, Interlocked.Read(ref _openTicks)),
        Interlocked.Read(ref _commands), Stopwatch.GetElapsedTime(0, Interlocked.Read(ref _commandTicks)));

    void IObserver<DiagnosticListener>.OnNext(DiagnosticListener listener)
    {
        if (listener.Name != "SqlClientDiagnosticListener") return;
        lock (_subscriptions) _subscriptions.Add(listener.Subscribe(this));
    }

    void IObserver<KeyValuePair<string, object?>>.OnNext(KeyValuePair<string, object?> e)
    {
        var now = Stopwatch.GetTimestamp();
        switch (e.Value)
        {
            case SqlClientConnectionOpenBefore before: _started[before.OperationId] = now; break;
            case SqlClientConnectionOpenAfter after: Finish(after.OperationId, now, ref _openTicks, ref _opens); break;
            case SqlClientConnectionOpenError error: _started.TryRemove(error.OperationId, out _); break;
            case SqlClientCommandBefore before: _started[before.OperationId] = now; break;
            case SqlClientCommandAfter after: Finish(after.OperationId, now, ref _commandTicks, ref _commands); break;
            case SqlClientCommandError error: _started.TryRemove(error.OperationId, out _); break;
        }
    }

    void Finish(Guid operation, long now, ref long ticks, ref long count)
    {
        if (!_started.TryRemove(operation, out var started)) return;
        Interlocked.Add(ref ticks, now - started);
        Interlocked.Increment(ref count);
    }

    void IObserver<DiagnosticListener>.OnCompleted() { }
    void IObserver<DiagnosticListener>.OnError(Exception error) { }
    void IObserver<KeyValuePair<string, object?>>.OnCompleted() { }
    void IObserver<KeyValuePair<string, object?>>.OnError(Exception error) { }

    public void Dispose()
    {
        _allListeners.Dispose();
        lock (_subscriptions) foreach (var subscription in _subscriptions) subscription.Dispose();
    }
}
