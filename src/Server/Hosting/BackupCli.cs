using IfiDashboard.Server.Security;
using IfiDashboard.Store;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Options;
using IfiDashboard.Server.Store;
using IfiDashboard.Shared.Hosting;

namespace IfiDashboard.Server.Hosting;

/// <summary>
/// <c>dotnet run --project src/Server -- backup FILE</c>: a consistent copy of the SQLite store, safe while servers
/// run on it (<see cref="SqliteBackup"/>). It never migrates, so the new release can back up the old store before its
/// first start. A PostgreSQL store is backed up with pg_dump (docs/deployment.md#backup-and-restore).
/// </summary>
public static class BackupCli
{
    public const string Command = "backup";

    /// <summary>Runs the command when the arguments start with it; the caller then exits instead of serving.</summary>
    public static Task<bool> TryRunAsync(string[] args) => ServerCommand.TryRunAsync(args, Command, RunAsync);

    /// <returns>0 done, 1 the store or the file cannot be used, 2 usage error.</returns>
    public static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter error)
    {
        if (args.Length == 0 || args[0].StartsWith("--", StringComparison.Ordinal))
        {
            await error.WriteLineAsync("Usage: backup FILE [--Store:ConnectionString=...]: writes a copy of the SQLite store to FILE, which must not exist.");
            return 2;
        }
        var target = Path.GetFullPath(args[0]);
        var builder = ServerHost.CreateBuilder(args[1..]);
        builder.Logging.ClearProviders();
        builder.Services.AddIfiStore(builder.Configuration);
        await using var app = builder.Build();

        StoreOptions store;
        try
        {
            store = app.Services.GetRequiredService<IOptions<StoreOptions>>().Value;
        }
        catch (OptionsValidationException invalid)
        {
            await error.WriteLineAsync(string.Join(" ", invalid.Failures));
            return 1;
        }
        if (store.IsPostgres)
        {
            await error.WriteLineAsync("Store:Provider is Postgres: back the store up with pg_dump -Fc (docs/deployment.md#backup-and-restore).");
            return 2;
        }
        var source = Path.GetFullPath(new SqliteConnectionStringBuilder(store.ConnectionString).DataSource);
        if (!File.Exists(source))
        {
            await error.WriteLineAsync($"Store:ConnectionString: there is no store at {source} to back up.");
            return 1;
        }
        if (File.Exists(target) || Directory.Exists(target))
        {
            await error.WriteLineAsync($"{target} already exists: name a new file, so that no earlier backup is overwritten.");
            return 1;
        }

        // Owner-only like the store itself: the backup holds the audit log and the API keys' hashes.
        PrivateFiles.EnsureFile(target);
        await using (var connection = await app.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
        {
            try
            {
                await connection.WriteCopyAsync(target, CancellationToken.None);
            }
            catch (SqliteException e)
            {
                await error.WriteLineAsync($"The backup to {target} failed: {e.Message}");
                return 1;
            }
        }
        await output.WriteLineAsync($"Backed up the store {source} to {target} ({new FileInfo(target).Length} bytes).");
        return 0;
    }
}
