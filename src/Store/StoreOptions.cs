namespace IfiDashboard.Store;

/// <summary>The <c>Store</c> configuration section.</summary>
public sealed class StoreOptions
{
    public const string SectionName = "Store";
    public const string SqliteProvider = "Sqlite";
    public const string PostgresProvider = "Postgres";

    /// <summary>"Sqlite" (embedded, the default) or "Postgres" (a shared store for several servers and collectors).</summary>
    public string Provider { get; set; } = SqliteProvider;

    /// <summary>
    /// Microsoft.Data.Sqlite syntax for SQLite (<c>Data Source=data/ifidashboard.db</c>), Npgsql syntax for PostgreSQL
    /// (<c>Host=db;Database=ifidashboard;Username=ifi</c>; the password from the environment or a secrets file, e.g.
    /// <c>Store__ConnectionString</c>, never from a committed file).
    /// </summary>
    public string ConnectionString { get; set; } = "Data Source=data/ifidashboard.db";

    /// <summary>
    /// How long the server keeps trying to reach a PostgreSQL store that is not up yet when it starts (a database
    /// container starting beside it, a fail-over); then it stops with the connection error.
    /// </summary>
    public int StartupWaitSeconds { get; set; } = 60;

    /// <summary>
    /// SQLite only: the most the store's file may grow to, in megabytes; 0 (the default) for no limit but the disk's.
    /// Set below the disk's free space, the store says it is full (507, <c>/readyz</c> 503) while the disk still has
    /// room for the operating system and the logs. Raised, it counts at the next write, without a restart.
    /// </summary>
    public int MaxSizeMegabytes { get; set; }

    public bool IsSqlite => string.Equals(Provider, SqliteProvider, StringComparison.OrdinalIgnoreCase);

    public bool IsPostgres => string.Equals(Provider, PostgresProvider, StringComparison.OrdinalIgnoreCase);
}
