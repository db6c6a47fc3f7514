using IfiDashboard.Collector.Standalone;
using IfiDashboard.Shared.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Collector.Hosting;

/// <summary>
/// A start that fails on something the operator can fix (a setting, the store, the outbox, the port) ends with one
/// line on standard error naming the setting and what to do, and exit code 1; any other failure keeps its full
/// exception. Both deployables use it: the standalone collector as it is, the server with its own store and port
/// advice (src/Server/Hosting/ServerStartupAdvice.cs).
/// </summary>
public static class StartupFailure
{
    // The generic host logs a failed start with its stack trace before rethrowing it; Program reports it instead.
    const string HostCategory = "Microsoft.Extensions.Hosting.Internal.Host";

    /// <summary>Holds back the host's own report of a failed start; once started, the host logs as usual.</summary>
    public static TBuilder ReportStartupFailuresOnce<TBuilder>(this TBuilder builder) where TBuilder : IHostApplicationBuilder
    {
        var started = new StartedSignal();
        builder.Services.AddSingleton<IHostedService>(started);
        // A rule for this one category, so that no broader level configured for "Microsoft" overrides it.
        builder.Logging.AddFilter(HostCategory, level => level >= LogLevel.Information && (started.IsSet || level < LogLevel.Error));
        return builder;
    }

    /// <summary>Ends the start with the one line of advice on standard error; returns the exit code, 1.</summary>
    public static int Report(string deployable, string advice)
    {
        Console.Error.WriteLine($"{deployable} cannot start: {advice}");
        Environment.ExitCode = 1;
        return 1;
    }

    /// <summary>
    /// The setting to fix and what to do, for a failure the operator can fix; null for anything else.
    /// <paramref name="specific"/> advises on the deployable's own failures (the server's store and port).
    /// </summary>
    public static string? Advice(Exception e, Func<Exception, string?>? specific = null) => e switch
    {
        AggregateException { InnerExceptions.Count: 1 } single => Advice(single.InnerExceptions[0], specific),
        AggregateException many when many.InnerExceptions.Select(inner => Advice(inner, specific)).ToList() is var all
                                     && all.All(a => a is not null) =>
            string.Join(" ", all),
        InvalidSettingException setting => setting.Message,
        OptionsValidationException invalid => string.Join(" ", invalid.Failures),
        OutboxUnavailableException outbox => outbox.Message,
        InvalidOperationException conversion when SettingValues.ConversionAdvice(conversion) is { } advice => advice,
        _ => specific?.Invoke(e),
    };

    sealed class StartedSignal : IHostedLifecycleService
    {
        volatile bool _isSet;
        public bool IsSet => _isSet;
        public Task StartedAsync(CancellationToken cancellationToken) { _isSet = true; return Task.CompletedTask; }
        public Task StartingAsync(CancellationToken cancellationToken) => Task.CompletedTask;
        public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;
        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
        public Task StoppingAsync(CancellationToken cancellationToken) => Task.CompletedTask;
        public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
