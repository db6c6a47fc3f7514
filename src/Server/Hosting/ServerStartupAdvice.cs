using IfiDashboard.Collector.Hosting;
using Microsoft.AspNetCore.Connections;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Server.Hosting;

/// <summary>The server's start-up advice: the settings every deployable has, then the store's and the port's.</summary>
public static class ServerStartupAdvice
{
    public const string Deployable = "IfiDashboard";

    /// <summary>The setting to fix and what to do, for a failure the operator can fix; null for anything else.</summary>
    public static string? For(Exception e) => StartupFailure.Advice(e, StoreOrPort);

    static string? StoreOrPort(Exception e) => e switch
    {
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
}
