namespace IfiDashboard.Server.Store;

/// <summary>The <c>Store</c> configuration section.</summary>
public sealed class StoreOptions
{
    public const string SectionName = "Store";
    public const string SqliteProvider = "Sqlite";

    /// <summary>Only "Sqlite" today; "Postgres" will get its own factory and migration folder.</summary>
    public string Provider { get; set; } = SqliteProvider;

    public string ConnectionString { get; set; } = "Data Source=data/ifidashboard.db";

    public bool IsSqlite => string.Equals(Provider, SqliteProvider, StringComparison.OrdinalIgnoreCase);
}
