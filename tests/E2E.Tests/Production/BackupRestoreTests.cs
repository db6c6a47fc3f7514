using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Npgsql;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// docs/deployment.md's backup and restore of a SQLite store, as processes: <c>backup FILE</c> while the server runs
/// and writes, then the restore steps (stop, replace the file, remove its -wal and -shm, start). The restored server
/// has every row the backup has, and nothing written after it.
/// </summary>
public sealed class BackupRestoreTests(TestPostgresServer postgres) : IClassFixture<TestPostgresServer>, IDisposable
{
    static readonly string AdminKey = "backup-bootstrap-" + Guid.NewGuid().ToString("N");
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-backup-").FullName;

    string Store => Path.Combine(_directory, "data", "ifidashboard.db");

    [Fact]
    public async Task A_backup_taken_while_the_server_writes_restores_every_row_it_holds()
    {
        string key;
        var (server, url) = await StartAsync();
        await using (server)
        {
            using var api = await ApiClientAsync(url, null);
            key = api.DefaultRequestHeaders.GetValues("X-Api-Key").Single();
            await PutAsync(api, "CI001");
            await PutAsync(api, "CI002");

            await RunToExitAsync(0, "backup", "backup.db");
            // Written after the backup: the WAL holds it, and the restored store must not.
            await PutAsync(api, "CI003");
        }

        var backup = StoreRows.Read(Path.Combine(_directory, "backup.db"));
        Assert.Equal(2, backup["instances"].Rows.Count);
        File.Copy(Path.Combine(_directory, "backup.db"), Store, overwrite: true);
        File.Delete(Store + "-wal");
        File.Delete(Store + "-shm");

        var (restored, restoredUrl) = await StartAsync();
        await using (restored)
        {
            using var api = await ApiClientAsync(restoredUrl, key);
            Assert.Equal(HttpStatusCode.OK, (await api.GetAsync("api/v1/instances/CI002")).StatusCode);
            Assert.Equal(HttpStatusCode.NotFound, (await api.GetAsync("api/v1/instances/CI003")).StatusCode);
        }
        var after = StoreRows.Read(Store);
        foreach (var (name, table) in backup)
            Assert.True(table.Project(table.Columns).ToHashSet().IsSubsetOf(after[name].Project(table.Columns)),
                $"{name}: rows of the backup missing after the restore");
    }

    [Fact]
    public async Task A_postgres_store_round_trips_through_pg_dump_and_pg_restore_as_the_docs_say()
    {
        var source = await CreateDatabaseAsync(postgres.ConnectionString);
        var (server, url) = await StartAsync("--Store:Provider=Postgres", $"--Store:ConnectionString={source}");
        string key;
        await using (server)
        {
            using var api = await ApiClientAsync(url, null);
            key = api.DefaultRequestHeaders.GetValues("X-Api-Key").Single();
            await PutAsync(api, "CI001");
        }

        var dump = Path.Combine(_directory, "ifi.dump");
        await PgAsync("pg_dump", "-Fc", "-f", dump, "--dbname", Libpq(source));
        var restoredStore = await CreateDatabaseAsync(postgres.ConnectionString);
        await PgAsync("pg_restore", "--no-owner", "--exit-on-error", "--dbname", Libpq(restoredStore), dump);

        var (restored, restoredUrl) = await StartAsync("--Store:Provider=Postgres", $"--Store:ConnectionString={restoredStore}");
        await using (restored)
        {
            using var api = await ApiClientAsync(restoredUrl, key);
            Assert.Equal(HttpStatusCode.OK, (await api.GetAsync("api/v1/instances/CI001")).StatusCode);
            Assert.DoesNotContain("Applied store migration", restored.Output, StringComparison.Ordinal);
        }
    }

    static async Task<string> CreateDatabaseAsync(string postgres)
    {
        var name = "ifi_backup_" + Guid.NewGuid().ToString("N")[..12];
        await using (var admin = new NpgsqlConnection(postgres))
        {
            await admin.OpenAsync();
            await using var create = new NpgsqlCommand($"CREATE DATABASE {name};", admin);
            await create.ExecuteNonQueryAsync();
        }
        return new NpgsqlConnectionStringBuilder(postgres) { Database = name }.ConnectionString;
    }

    /// <summary>The connection as pg_dump and pg_restore take it (a libpq URI; the test server trusts loopback).</summary>
    static string Libpq(string connectionString)
    {
        var c = new NpgsqlConnectionStringBuilder(connectionString);
        return $"postgresql://{Uri.EscapeDataString(c.Username ?? "")}@{c.Host}:{c.Port}/{c.Database}";
    }

    static Task<string> PgAsync(string program, params string[] arguments)
    {
        var start = new System.Diagnostics.ProcessStartInfo(program);
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        return ServerProcess.RunToEndAsync(start, TimeSpan.FromMinutes(2));
    }

    [Fact]
    public async Task A_backup_never_overwrites_a_file_and_names_a_missing_store()
    {
        await File.WriteAllTextAsync(Path.Combine(_directory, "earlier.db"), "an earlier backup");

        var missing = await RunToExitAsync(1, "backup", "backup.db");
        Assert.Contains("Store:ConnectionString", missing, StringComparison.Ordinal);
        Directory.CreateDirectory(Path.GetDirectoryName(Store)!);
        await File.WriteAllBytesAsync(Store, []);
        var exists = await RunToExitAsync(1, "backup", "earlier.db");

        Assert.Contains("already exists", exists, StringComparison.Ordinal);
        Assert.Equal("an earlier backup", await File.ReadAllTextAsync(Path.Combine(_directory, "earlier.db")));
    }

    Task<(ServerProcess, string)> StartAsync(params string[] store) =>
        ServerProcess.StartOnFreePortAsync(ServerProcess.BuildOutput, _directory,
            // No collector: nothing but the test writes, so the rows compare exactly.
            url => ["--urls", url, $"--Api:BootstrapAdminKey={AdminKey}", "--Collector:Enabled=false", .. store], TimeSpan.FromSeconds(120));

    /// <summary>Runs the server's CLI to its end; returns its standard error.</summary>
    async Task<string> RunToExitAsync(int expectedExitCode, params string[] arguments)
    {
        await using var command = ServerProcess.Start(ServerProcess.BuildOutput, _directory, arguments);
        await command.WaitForExitAsync(TimeSpan.FromSeconds(120));
        Assert.True(command.ExitCode == expectedExitCode, $"exit code {command.ExitCode}:\n{command.Output}");
        return string.Join('\n', command.ErrorLines);
    }

    static async Task<HttpClient> ApiClientAsync(string baseUrl, string? key)
    {
        var http = new HttpClient { BaseAddress = new Uri(baseUrl), Timeout = TimeSpan.FromSeconds(60) };
        if (key is null)
        {
            http.DefaultRequestHeaders.Add("X-Api-Key", AdminKey);
            var created = await http.PostAsJsonAsync("api/v1/api-keys", new { name = "backup", scopes = new[] { "read", "inventory:write" } });
            Assert.True(created.IsSuccessStatusCode, await created.Content.ReadAsStringAsync());
            key = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("key").GetString()!;
            http.DefaultRequestHeaders.Remove("X-Api-Key");
        }
        http.DefaultRequestHeaders.Add("X-Api-Key", key);
        return http;
    }

    static async Task PutAsync(HttpClient api, string externalKey)
    {
        var response = await api.PutAsJsonAsync($"api/v1/instances/{externalKey}",
            new { name = "SQL-" + externalKey, host = externalKey.ToLowerInvariant() + ".corp.example", port = 1433 });
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
    }

    public void Dispose()
    {
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}
