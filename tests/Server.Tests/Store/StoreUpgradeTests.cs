using System.Diagnostics;
using Dapper;
using IfiDashboard.Store;
using IfiDashboard.Store.Migrations;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// Stores made before DbUp ran the migrations (by the own runner, docs/decisions/0001-own-migration-runner.md) upgrade
/// through the server's start-up path without re-running a script, and servers starting together migrate once.
/// </summary>
public sealed class StoreUpgradeTests
{
    static readonly CancellationToken None = CancellationToken.None;

    /// <summary>When the own runner journaled the scripts of the committed store file and of <see cref="MadeByOwnRunnerAsync"/>.</summary>
    const string OwnRunnerAppliedAt = "2026-05-03T08:00:00.0000000Z";

    /// <summary>
    /// Made with the release before DbUp: its migrations, then two instances and three polls through its repositories.
    /// </summary>
    static readonly string StoreFileOfPreviousRelease =
        Path.Combine(AppContext.BaseDirectory, "Store", "TestData", "store-before-dbup.db");

    static readonly string[] PollsOfPreviousRelease =
        ["11111111-1111-1111-1111-111111111111", "22222222-2222-2222-2222-222222222222", "33333333-3333-3333-3333-333333333333"];

    static ServiceProvider Server(string provider, string connectionString) => new ServiceCollection()
        .AddIfiStore(new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["Store:Provider"] = provider,
                ["Store:ConnectionString"] = connectionString,
            })
            .Build())
        .BuildServiceProvider();

    static async Task<List<(string Script, string AppliedAt)>> JournalAsync(IDbConnectionFactory connections)
    {
        await using var connection = await connections.OpenAsync(None);
        return (await connection.QueryAsync<(string, string)>(
            "SELECT script_name, applied_at FROM schema_versions ORDER BY script_name;")).ToList();
    }

    [Fact, Trait(TestDatabase.SqliteOnlyTrait, TestDatabase.SqliteOnlyValue)]
    public async Task The_store_file_of_the_release_before_dbup_upgrades_without_rerunning_a_script_and_keeps_its_data()
    {
        var directory = Directory.CreateTempSubdirectory("ifistore-").FullName;
        try
        {
            var file = Path.Combine(directory, "ifi.db");
            File.Copy(StoreFileOfPreviousRelease, file);
            await using var server = Server(StoreOptions.SqliteProvider, $"Data Source={file};Pooling=False");
            var connections = server.GetRequiredService<IDbConnectionFactory>();
            var scripts = server.GetRequiredService<StoreMigrations>().ScriptNames();
            var journalBefore = await JournalAsync(connections);

            var applied = await server.MigrateIfiStoreAsync();

            // Only the scripts added since that release run; the ones it journaled are neither run nor rewritten.
            var journaledBefore = journalBefore.Select(row => row.Script).ToList();
            Assert.Equal(journaledBefore.Select(name => (name, OwnRunnerAppliedAt)), journalBefore);
            Assert.Equal(scripts.Take(journaledBefore.Count), journaledBefore);
            Assert.Equal(scripts.Skip(journaledBefore.Count), applied);
            Assert.Equal(journalBefore, (await JournalAsync(connections)).Where(row => journaledBefore.Contains(row.Script)));
            await using (var connection = await connections.OpenAsync(None))
            {
                Assert.Equal(["SQL-BEFORE-DBUP-1", "SQL-BEFORE-DBUP-2"],
                    await connection.QueryAsync<string>("SELECT name FROM instances ORDER BY id;"));
                Assert.Equal(PollsOfPreviousRelease,
                    await connection.QueryAsync<string>("SELECT snapshot_id FROM polls ORDER BY id;"));
                // That release journaled inventory changes only when the feed was read; the upgrade journals what no
                // read had (0014), since writes journal their own changes from now on.
                Assert.Equal([("SQL-BEFORE-DBUP-1", "created"), ("SQL-BEFORE-DBUP-2", "created")],
                    await connection.QueryAsync<(string, string)>(
                        "SELECT i.name, j.change FROM change_journal j JOIN instances i ON i.id = j.instance_id WHERE j.kind = 'inventory' ORDER BY j.id;"));
            }
            Assert.Equal(HealthStatus.Healthy, (await server.GetRequiredService<StoreHealth>().CheckHealthAsync(new HealthCheckContext(), None)).Status);

            var later = new StoreMigrations(connections, TimeProvider.System, scripts: StoreMigrationsTests.WithLaterScript(
                SqlDialect.Sqlite, "9001_later_feature.sql", "CREATE TABLE later_feature (id INTEGER PRIMARY KEY);"));
            Assert.Equal(["9001_later_feature.sql"], await later.ApplyAsync(TimeSpan.Zero, None));
            Assert.Equal([.. scripts, "9001_later_feature.sql"], (await JournalAsync(connections)).Select(row => row.Script));
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>
    /// What the own runner left in a store: its journal table, every script of the release applied and journaled in
    /// one transaction each, then data written through the repositories.
    /// </summary>
    static async Task MadeByOwnRunnerAsync(TestStore store)
    {
        await using (var connection = await store.OpenAsync())
        {
            await connection.ExecuteAsync("""
                CREATE TABLE IF NOT EXISTS schema_versions (
                    script_name TEXT NOT NULL PRIMARY KEY,
                    applied_at  TEXT NOT NULL
                );
                """);
            foreach (var script in StoreMigrations.EmbeddedScripts(store.Connections.Dialect))
            {
                await using var tx = await connection.BeginTransactionAsync();
                await connection.ExecuteAsync(script.Contents, transaction: tx);
                await connection.ExecuteAsync("INSERT INTO schema_versions (script_name, applied_at) VALUES (@name, @at);",
                    new { name = script.Name, at = OwnRunnerAppliedAt }, tx);
                await tx.CommitAsync();
            }
        }
        var id = await store.Instances.AddAsync(TestData.Registration("SQL-BEFORE-DBUP"), None);
        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start) with { SnapshotId = Guid.Parse(PollsOfPreviousRelease[0]) }, None);
    }

    [Theory, StoreProviders]
    public async Task A_store_journaled_by_the_own_runner_upgrades_through_server_startup_without_rerunning_a_script(StoreProvider provider)
    {
        await using var store = TestStore.CreateEmpty(provider);
        await MadeByOwnRunnerAsync(store);
        await using var server = Server(store.Database.Provider, store.Database.ConnectionString);
        var journalBefore = await JournalAsync(store.Connections);

        var applied = await server.MigrateIfiStoreAsync();

        Assert.Empty(applied);
        Assert.Equal(server.GetRequiredService<StoreMigrations>().ScriptNames(), journalBefore.Select(row => row.Script));
        Assert.Equal(journalBefore, await JournalAsync(store.Connections));
        Assert.Equal(["SQL-BEFORE-DBUP"], (await store.Instances.ListActiveAsync(None)).Select(i => i.Name));
        await using (var connection = await store.OpenAsync())
            Assert.Equal([PollsOfPreviousRelease[0]], await connection.QueryAsync<string>("SELECT snapshot_id FROM polls;"));
        Assert.Equal(HealthStatus.Healthy, (await server.GetRequiredService<StoreHealth>().CheckHealthAsync(new HealthCheckContext(), None)).Status);

        var later = store.Migrations(StoreMigrationsTests.WithLaterScript(store.Connections.Dialect,
            "9001_later_feature.sql", "CREATE TABLE later_feature (id INTEGER PRIMARY KEY);"));
        Assert.Equal(["9001_later_feature.sql"], await later.ApplyAsync(TimeSpan.Zero, None));
    }

    [Theory, StoreProviders]
    public async Task Two_server_processes_starting_at_once_on_one_fresh_store_migrate_it_once(StoreProvider provider)
    {
        await using var store = TestStore.CreateEmpty(provider);

        // The server's own command line migrates the store before it lists the keys, as the server does before it serves.
        var exits = await Task.WhenAll(RunServerCommandAsync(store.Database), RunServerCommandAsync(store.Database));

        Assert.All(exits, exit => Assert.True(exit.Code == 0, exit.Output));
        var journal = await StoreMigrationsTests.JournalAsync(store);
        Assert.Equal(store.Migrations().ScriptNames(), journal); // each script once: script_name is the key, so compare lists
        Assert.Empty(await store.Migrations().PendingScriptsAsync(None));
    }

    static async Task<(int Code, string Output)> RunServerCommandAsync(TestDatabase database)
    {
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = AppContext.BaseDirectory,
        };
        foreach (var arg in new[]
                 {
                     Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Server.dll"), "api-key", "list",
                     "--Store:Provider", database.Provider, "--Store:ConnectionString", database.ConnectionString,
                 })
            start.ArgumentList.Add(arg);
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await output + await error);
    }
}
