using System.Collections.Concurrent;

namespace IfiDashboard.Simulator.Hosting;

public sealed record TranscriptEntry(DateTimeOffset At, string Kind, string Text);

/// <summary>What one simulated instance received, newest last, bounded so a long demo does not grow without end.</summary>
public sealed class Transcript
{
    const int Capacity = 2000;
    readonly ConcurrentQueue<TranscriptEntry> _entries = new();

    public void Add(string kind, string text)
    {
        _entries.Enqueue(new TranscriptEntry(DateTimeOffset.UtcNow, kind, text));
        while (_entries.Count > Capacity && _entries.TryDequeue(out _)) { }
    }

    public IReadOnlyList<TranscriptEntry> Entries => _entries.ToArray();

    public IEnumerable<string> TextsOf(string kind) => Entries.Where(e => e.Kind == kind).Select(e => e.Text);

    public void Clear() => _entries.Clear();
}
