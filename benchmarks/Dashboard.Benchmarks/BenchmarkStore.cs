using System.Data.Common;
using Dapper;
using IfiDashboard.Store;
using IfiDashboard.Store.Policy;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Where the benchmark's store lives: a SQLite file (<c>--store</c>), or a PostgreSQL database (<c>--postgres</c>).
/// Either is seeded once and reused by later runs; the server is started with <see cref="ServerSettings"/>.
/// </summary>
internal abstract class BenchmarkStore
{
    public static BenchmarkStore For(BenchmarkOptions options) =>
        options.Postgres is { } connectionString ? new PostgresBenchmarkStore(connectionString) : new SqliteBenchmarkStore(options.StorePath);

    /// <summary>What the server is started with (<c>Store:*</c> settings).</summary>
    public abstract IReadOnlyDictionary<string, string> ServerSettings { get; }
    public abstract string Description { get; }
    public abstract string Kind { get; }
    /// <summary>A copy for a run that writes, so that the seeded store stays as it was for the next run.</summary>
    public abstract Task<BenchmarkStore> CopyAsync(string suffix);
    /// <summary>A new, empty store beside this one (dropped first if it exists), for a run with a fleet of its own.</summary>
    public abstract Task<BenchmarkStore> EmptySiblingAsync(string suffix);
    /// <summary>The database server's main process, whose children do the store's work (PostgreSQL); null for SQLite.</summary>
    public virtual Task<int?> ServerProcessIdAsync() => Task.FromResult<int?>(null);
    /// <summary>Where a run's server log goes, named after the store.</summary>
    public abstract string LogPath(string run);
    public abstract Task<bool> IsSeededAsync();
    public abstract Task DeleteAsync();
    /// <summary>Makes the store's database (PostgreSQL) before the seeder migrates it.</summary>
    public virtual Task CreateAsync() => Task.CompletedTask;
    /// <summary>Settles the store after seeding and marks it complete, so that a later run reuses it.</summary>
    public abstract Task SettleAsync(string seeded);
    public abstract Task<DbConnection> OpenReadOnlyAsync();
    public abstract Task<long> BytesAsync(DbConnection connection);

    public ServiceProvider Services()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(ServerSettings.ToDictionary(s => s.Key, s => (string?)s.Value))
            .Build();
        var services = new ServiceCollection();
        services.AddIfiStore(configuration);
        services.AddSingleton<PolicyStore>();
        return services.BuildServiceProvider();
    }
}

internal sealed class SqliteBenchmarkStore(string path) : BenchmarkStore
{
    public override IReadOnlyDictionary<string, string> ServerSettings { get; } =
        new Dictionary<string, string> { ["Store:ConnectionString"] = $"Data Source={path}" };

    public override string Description => path;
    public override string Kind => "SQLite";

    /// <summary>
    /// The store at <paramref name="storePath"/>, WAL included, copied into a new temp directory for a run that writes
    /// (the server of that run keeps its files there too), so the seeded store stays as seeded.
    /// </summary>
    public static (string Directory, string Store) CopyToTemp(string storePath, string run)
    {
        var directory = Directory.CreateTempSubdirectory($"ifi-dashboard-bench-{run}-").FullName;
        var copy = Path.Combine(directory, "store.db");
        File.Copy(storePath, copy);
        if (File.Exists(storePath + "-wal")) File.Copy(storePath + "-wal", copy + "-wal");
        return (directory, copy);
    }

    public override async Task<BenchmarkStore> CopyAsync(string suffix)
    {
        var copy = Path.ChangeExtension(path, $".{suffix}.db");
        foreach (var file in new[] { copy, copy + "-wal", copy + "-shm" })
            File.Delete(file);
        await using var connection = new SqliteConnection($"Data Source={path};Mode=ReadOnly;Pooling=False");
        await connection.OpenAsync();
        await connection.ExecuteAsync("VACUUM INTO @copy;", new { copy });
        return new SqliteBenchmarkStore(copy);
    }

    public override async Task<BenchmarkStore> EmptySiblingAsync(string suffix)
    {
        var sibling = new SqliteBenchmarkStore(Path.ChangeExtension(path, $".{suffix}.db"));
        await sibling.DeleteAsync();
        return sibling;
    }
    public override string LogPath(string run) => Path.ChangeExtension(path, $".{run}.log");
    public override Task<bool> IsSeededAsync() => Task.FromResult(File.Exists(path));

    public override Task DeleteAsync()
    {
        foreach (var file in new[] { path, path + "-wal", path + "-shm" })
            File.Delete(file);
        return Task.CompletedTask;
    }

    /// <summary>
    /// Folds the WAL into the database file so the server starts on a settled store. No ANALYZE: the server never
    /// runs one, so its queries must be measured with the plans a real store gets.
    /// </summary>
    public override async Task SettleAsync(string seeded)
    {
        await using var connection = new SqliteConnection($"Data Source={path};Pooling=False");
        await connection.OpenAsync();
        await connection.ExecuteAsync("PRAGMA wal_checkpoint(TRUNCATE);");
    }

    public override async Task<DbConnection> OpenReadOnlyAsync()
    {
        var connection = new SqliteConnection($"Data Source={path};Mode=ReadOnly;Pooling=False");
        await connection.OpenAsync();
        return connection;
    }

    public override Task<long> BytesAsync(DbConnection connection) =>
        Task.FromResult(new FileInfo(path).Length + (File.Exists(path + "-wal") ? new FileInfo(path + "-wal").Length : 0));
}

/// <summary>
/// A database of its own on a PostgreSQL server, made by the seeder. A finished seeding leaves a comment on the
/// database; a database without it is an interrupted seeding, which is refused rather than measured.
/// </summary>
internal sealed class PostgresBenchmarkStore : BenchmarkStore
{
    const string SeededMark = "ifi-dashboard-benchmark seeded:";
    readonly string _connectionString;
    readonly string _database;

    public PostgresBenchmarkStore(string connectionString)
    {
        var builder = new NpgsqlConnectionStringBuilder(connectionString);
        _database = builder.Database is { Length: > 0 } database && database != "postgres"
            ? database
            : throw new ArgumentException("--postgres needs a connection string naming a database of the benchmark's own (Database=...), not the admin database.");
        _connectionString = builder.ConnectionString;
        ServerSettings = new Dictionary<string, string>
        {
            ["Store:Provider"] = StoreOptions.PostgresProvider,
            ["Store:ConnectionString"] = _connectionString,
        };
    }

    public override IReadOnlyDictionary<string, string> ServerSettings { get; }
    public override string Description => $"PostgreSQL database {_database}";
    public override string Kind => "PostgreSQL";

    /// <summary>CREATE DATABASE ... TEMPLATE: a file-level copy, minutes for several GB instead of a new seeding.</summary>
    public override async Task<BenchmarkStore> CopyAsync(string suffix)
    {
        var copy = Sibling(suffix);
        await copy.DeleteAsync();
        await copy.CreateFromAsync(this);
        return copy;
    }

    public override async Task<BenchmarkStore> EmptySiblingAsync(string suffix)
    {
        var sibling = Sibling(suffix);
        await sibling.DeleteAsync();
        await sibling.CreateAsync();
        return sibling;
    }

    /// <summary>Another database on the same server, named after this one.</summary>
    public PostgresBenchmarkStore Sibling(string suffix) =>
        new(new NpgsqlConnectionStringBuilder(_connectionString) { Database = $"{_database}_{suffix}" }.ConnectionString);

    public async Task CreateFromAsync(PostgresBenchmarkStore template)
    {
        // A template must have no session: this process's pooled connections to it go first.
        NpgsqlConnection.ClearAllPools();
        await using var admin = await OpenAdminAsync();
        await admin.ExecuteAsync($"CREATE DATABASE {Quoted} TEMPLATE {template.Quoted};", commandTimeout: 3600);
    }

    public override async Task<int?> ServerProcessIdAsync()
    {
        await using var connection = await OpenReadOnlyAsync();
        var backend = await connection.ExecuteScalarAsync<int>("SELECT pg_backend_pid();");
        // A backend's parent is the postmaster (when the server runs on this machine).
        var stat = await File.ReadAllTextAsync($"/proc/{backend}/stat");
        return int.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[1], System.Globalization.CultureInfo.InvariantCulture);
    }
    public override string LogPath(string run) => Path.Combine(Path.GetTempPath(), $"ifi-dashboard-bench-pg-{_database}.{run}.log");

    public override async Task<bool> IsSeededAsync()
    {
        await using var admin = await OpenAdminAsync();
        var exists = await admin.ExecuteScalarAsync<bool>("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = @name);", new { name = _database });
        if (!exists) return false;
        var comment = await admin.ExecuteScalarAsync<string?>(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = @name;", new { name = _database });
        return comment?.StartsWith(SeededMark, StringComparison.Ordinal) == true
            ? true
            : throw new InvalidOperationException($"The database {_database} exists but its seeding did not finish: pass --rebuild.");
    }

    public override async Task DeleteAsync()
    {
        await using var admin = await OpenAdminAsync();
        await admin.ExecuteAsync($"DROP DATABASE IF EXISTS {Quoted} WITH (FORCE);");
    }

    public override async Task CreateAsync()
    {
        await using var admin = await OpenAdminAsync();
        await admin.ExecuteAsync($"CREATE DATABASE {Quoted};");
    }

    /// <summary>
    /// VACUUM ANALYZE: what autovacuum does to freshly loaded tables on its own within minutes, done at once so that
    /// the first run does not measure the planner before its statistics exist.
    /// </summary>
    public override async Task SettleAsync(string seeded)
    {
        await using (var connection = new NpgsqlConnection(_connectionString))
        {
            await connection.OpenAsync();
            await connection.ExecuteAsync("VACUUM (ANALYZE);", commandTimeout: 3600);
        }
        await using var admin = await OpenAdminAsync();
        await admin.ExecuteAsync($"COMMENT ON DATABASE {Quoted} IS '{SeededMark} {seeded.Replace("'", "", StringComparison.Ordinal)}';");
    }

    public override async Task<DbConnection> OpenReadOnlyAsync()
    {
        var connection = new NpgsqlConnection(_connectionString);
        await connection.OpenAsync();
        return connection;
    }

    public override Task<long> BytesAsync(DbConnection connection) =>
        connection.ExecuteScalarAsync<long>("SELECT pg_database_size(current_database());");

    string Quoted => "\"" + _database.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";

    async Task<NpgsqlConnection> OpenAdminAsync()
    {
        var admin = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(_connectionString) { Database = "postgres", Pooling = false }.ConnectionString);
        await admin.OpenAsync();
        return admin;
    }
}
