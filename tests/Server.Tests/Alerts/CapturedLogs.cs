using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>Every log line the server writes, exceptions included, for "this secret is in no log" assertions.</summary>
internal sealed class CapturedLogs : ILoggerProvider
{
    readonly ConcurrentQueue<string> _lines = new();

    public string All => string.Join('\n', _lines);

    public ILogger CreateLogger(string categoryName) => new Logger(categoryName, _lines);

    public void Dispose()
    {
    }

    sealed class Logger(string category, ConcurrentQueue<string> lines) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            lines.Enqueue($"{logLevel} {category}: {formatter(state, exception)} {exception}");
    }
}
