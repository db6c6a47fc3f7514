using System.Collections.Concurrent;
using System.Diagnostics.Tracing;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// Counts methods the JIT compiles while a phase runs, by declaring type, from the runtime's own events.
/// After warm-up a steady poll loop should compile almost nothing; what it still compiles is CPU every poll pays.
/// </summary>
internal sealed class JitCounter : EventListener
{
    const EventKeywords JitKeyword = (EventKeywords)0x10;
    const int MethodLoadVerbose = 143;
    readonly ConcurrentDictionary<string, int> _byMethod = new();
    volatile bool _counting;

    protected override void OnEventSourceCreated(EventSource source)
    {
        if (source.Name == "Microsoft-Windows-DotNETRuntime") EnableEvents(source, EventLevel.Verbose, JitKeyword);
    }

    protected override void OnEventWritten(EventWrittenEventArgs e)
    {
        if (!_counting || e.EventId != MethodLoadVerbose || e.Payload is null) return;
        // The event's "namespace" is the declaring type; Dapper's generated methods all show as dynamicClass.
        _byMethod.AddOrUpdate(Field(e, "MethodNamespace"), 1, (_, n) => n + 1);
    }

    static string Field(EventWrittenEventArgs e, string name)
    {
        var index = e.PayloadNames?.IndexOf(name) ?? -1;
        return index >= 0 ? e.Payload![index]?.ToString() ?? "" : "";
    }

    public void Start()
    {
        _byMethod.Clear();
        _counting = true;
    }

    public IReadOnlyList<KeyValuePair<string, int>> Stop()
    {
        _counting = false;
        return [.. _byMethod.OrderByDescending(p => p.Value)];
    }
}
