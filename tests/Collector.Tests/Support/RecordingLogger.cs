using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Tests.Support;

/// <summary>Keeps every formatted log line with its level, to check what a refusal tells an operator.</summary>
internal sealed class RecordingLogger<T> : ILogger<T>
{
    readonly ConcurrentQueue<(LogLevel Level, string Message)> _entries = new();

    public IReadOnlyList<(LogLevel Level, string Message)> Entries => [.. _entries];

    public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => true;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
        _entries.Enqueue((logLevel, formatter(state, exception)));
}
