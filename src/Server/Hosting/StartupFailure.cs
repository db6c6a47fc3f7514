using IfiDashboard.Shared.Hosting;
using Microsoft.AspNetCore.Connections;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Options;
using Npgsql;

namespace IfiDashboard.Server.Hosting;

/// <summary>
/// A start that fails on something the operator can fix (a setting, the store, the port) ends with one line on
/// standard error naming the setting and what to do, and exit code 1; any other failure keeps its full exception.
/// </summary>
public static class StartupFailure
{
    // The generic host logs a failed start with its stack trace before rethrowing it; Program reports it instead.
    const string HostCategory = "Microsoft.Extensions.Hosting.Internal.Host";

    /// <summary>Holds back the host's own report of a failed start; once started, the host logs as usual.</summary>
    public static WebApplicationBuilder ReportStartupFailuresOnce(this WebApplicationBuilder builder)
    {
        var started = new StartedSignal();
        builder.Services.AddSingleton<IHostedService>(started);
        // A rule for this one category, so that no broader level configured for "Microsoft" overrides it.
        builder.Logging.AddFilter(HostCategory, level => level >= LogLevel.Information && (started.IsSet || level < LogLevel.Error));
        return builder;
    }

    /// <summary>Ends the start with the one line of advice on standard error and exit code 1.</summary>
    public static void Report(string advice)
    {
        Console.Error.WriteLine($"IfiDashboard cannot start: {advice}");
        Environment.ExitCode = 1;
    }

    /// <summary>The setting to fix and what to do, for a failure the operator can fix; null for anything else.</summary>
    public static string? Advice(Exception e) => e switch
    {
        AggregateException { InnerExceptions.Count: 1 } single => Advice(single.InnerExceptions[0]),
        AggregateException many when many.InnerExceptions.Select(Advice).ToList() is var all && all.All(a => a is not null) =>
            string.Join(" ", all),
        InvalidSettingException setting => setting.Message,
        OptionsValidationException invalid => string.Join(" ", invalid.Failures),
        IOException { InnerException: AddressInUseException } =>
            $"Urls: {e.Message} Stop what listens there, or give the server another address (--urls http://127.0.0.1:5081 or Urls=...).",
        PostgresException { SqlState: PostgresErrorCodes.InvalidCatalogName } missing =>
            $"Store:ConnectionString names a database that does not exist ({missing.MessageText}): create it (CREATE DATABASE), or correct Database= in the connection string.",
        PostgresException { SqlState: PostgresErrorCodes.InvalidPassword or PostgresErrorCodes.InvalidAuthorizationSpecification } refused =>
            $"Store:ConnectionString: PostgreSQL refused the login ({refused.MessageText}): correct Username= and the password (Store__ConnectionString or a Passfile), or grant the role access in pg_hba.conf.",
        NpgsqlException { IsTransient: true } unreachable =>
            $"Store:ConnectionString: PostgreSQL is not reachable ({unreachable.Message}) after Store:StartupWaitSeconds: check Host= and Port=, and that the database server is running.",
        SqliteException { SqliteErrorCode: SqliteCantOpen or SqliteReadOnly or SqliteNotADatabase } sqlite =>
            $"Store:ConnectionString: SQLite cannot use the store file ({sqlite.Message}): check that Data Source= names a database file the server's account can write.",
        _ => null,
    };

    // SQLite result codes (https://sqlite.org/rescode.html).
    const int SqliteReadOnly = 8;
    const int SqliteCantOpen = 14;
    const int SqliteNotADatabase = 26;

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
