using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Microsoft.Data.Sqlite;
using Npgsql;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// A wrong setting, given to the real server process: it stops with exit code 1 and one line on standard error that
/// names the setting and what to do, and no stack trace anywhere in its output.
/// </summary>
public sealed class StartupFailureTests(TestPostgresServer postgres) : IClassFixture<TestPostgresServer>, IDisposable
{
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-startup-").FullName;

    [Theory]
    [InlineData("Api:BootstrapAdminKey", "--Api:BootstrapAdminKey=shorter-than-32-characters")]
    [InlineData("Store:Provider", "--Store:Provider=MySql")]
    [InlineData("Collector:SecretsFile", "--Collector:SecretsFile=no-such-secrets.json")]
    [InlineData("Auth:Proxy:KnownProxies", "--Auth:Proxy:UserHeader=X-Remote-User")]
    [InlineData("Auth:Roles:Auditor", "--Auth:Roles:Auditor:0=ifi-auditors")]
    [InlineData("Reports:Evidence:Monthly:To", "--Reports:Evidence:Monthly:To:0=auditor@example.test")]
    public async Task A_wrong_setting_stops_the_server_with_one_line_naming_it(string setting, string argument)
    {
        await AssertStopsWithOneLineAsync(setting, argument);
    }

    [Fact]
    public async Task A_secrets_file_that_is_not_json_names_the_setting()
    {
        await File.WriteAllTextAsync(Path.Combine(_directory, "secrets.json"), "Credentials: not json");

        await AssertStopsWithOneLineAsync("Collector:SecretsFile", "--Collector:SecretsFile=secrets.json");
    }

    [Fact]
    public async Task A_sqlite_store_in_a_folder_that_cannot_be_created_names_the_connection_string()
    {
        // A regular file where the store's folder should be: no account, root included, can create a folder inside it.
        var file = Path.Combine(_directory, "a-file");
        await File.WriteAllTextAsync(file, "");

        await AssertStopsWithOneLineAsync("Store:ConnectionString", $"--Store:ConnectionString=Data Source={file}/data/ifidashboard.db");
    }

    [Fact]
    public async Task A_postgres_database_that_does_not_exist_names_the_connection_string()
    {
        var missing = new NpgsqlConnectionStringBuilder(postgres.ConnectionString) { Database = "ifi_missing_" + Guid.NewGuid().ToString("N") };

        var output = await AssertStopsWithOneLineAsync("Store:ConnectionString",
            "--Store:Provider=Postgres", $"--Store:ConnectionString={missing}");

        Assert.Contains("does not exist", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_store_migrated_by_a_newer_release_stops_the_server_and_is_left_as_it_was()
    {
        // Migrations are one-way: the release before an upgrade must not serve, or write, a schema it does not know.
        var store = Path.Combine(_directory, "newer.db");
        await using (var connection = new SqliteConnection($"Data Source={store};Pooling=false"))
        {
            await connection.OpenAsync();
            await using var command = connection.CreateCommand();
            command.CommandText = """
                CREATE TABLE schema_versions (script_name TEXT NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL);
                INSERT INTO schema_versions VALUES ('9999_from_the_next_release.sql', '2026-11-27T00:00:00.0000000Z');
                """;
            await command.ExecuteNonQueryAsync();
        }

        var output = await AssertStopsWithOneLineAsync("Store:ConnectionString", $"--Store:ConnectionString=Data Source={store}");

        Assert.Contains("9999_from_the_next_release.sql", output, StringComparison.Ordinal);
        Assert.Contains("restore the backup", output, StringComparison.Ordinal);
        await using var after = new SqliteConnection($"Data Source={store};Pooling=false");
        await after.OpenAsync();
        await using var tables = after.CreateCommand();
        tables.CommandText = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table';";
        Assert.Equal(1L, await tables.ExecuteScalarAsync());
    }

    [Fact]
    public async Task A_port_in_use_names_the_address_setting()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;

        // Kestrel's bind failure passes through the host's own log, here at its most verbose.
        var output = await AssertStopsWithOneLineAsync("Urls", "--urls", $"http://127.0.0.1:{port}", "--Logging:LogLevel:Default=Debug");

        Assert.Contains($"127.0.0.1:{port}", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Proxy_sign_in_with_aspnetcores_forwarded_headers_switch_on_stops_the_server()
    {
        // The switch believes X-Forwarded-For from anyone: a client could name a known proxy and send the identity header.
        var output = await AssertStopsWithOneLineAsync("ASPNETCORE_FORWARDEDHEADERS_ENABLED",
            new Dictionary<string, string> { ["ASPNETCORE_FORWARDEDHEADERS_ENABLED"] = "true" },
            "--Auth:Proxy:UserHeader=X-Remote-User", "--Auth:Proxy:KnownProxies:0=10.1.0.5");

        Assert.StartsWith("IfiDashboard cannot start: Auth:Proxy: ", output, StringComparison.Ordinal);
    }

    /// <summary>Starts the server with the arguments, and returns its one line of advice once it has stopped.</summary>
    Task<string> AssertStopsWithOneLineAsync(string setting, params string[] arguments) =>
        AssertStopsWithOneLineAsync(setting, new Dictionary<string, string>(), arguments);

    async Task<string> AssertStopsWithOneLineAsync(string setting, IReadOnlyDictionary<string, string> environment, params string[] arguments)
    {
        await using var server = ServerProcess.Start(ServerProcess.BuildOutput, _directory, environment,
            ["--urls", $"http://127.0.0.1:{LoopbackPorts.Unassigned()}", .. arguments]);
        await server.WaitForExitAsync(TimeSpan.FromSeconds(90));

        var errors = server.ErrorLines.Where(l => l.Length > 0).ToList();
        Assert.True(server.ExitCode == 1, $"exit code {server.ExitCode}:\n{server.Output}");
        Assert.True(errors.Count == 1, $"expected one line on standard error:\n{server.Output}");
        Assert.Contains(setting, errors[0], StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", server.Output, StringComparison.Ordinal);
        return errors[0];
    }

    public void Dispose()
    {
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}

/// <summary>
/// The PostgreSQL server named by IFI_TEST_POSTGRES (./test.sh's PostgreSQL pass), or else a throwaway one started
/// here with scripts/start-test-postgres.sh on a folder and port of its own, and stopped at the end.
/// </summary>
public sealed class TestPostgresServer : IAsyncLifetime
{
    readonly string _directory = Path.Combine(Path.GetTempPath(), "ifi-e2e-postgres-" + Guid.NewGuid().ToString("N")[..8]);
    bool _started;

    public string ConnectionString { get; private set; } = "";

    public async Task InitializeAsync()
    {
        if (Environment.GetEnvironmentVariable("IFI_TEST_POSTGRES") is { Length: > 0 } given)
        {
            ConnectionString = given;
            return;
        }
        _started = true;
        ConnectionString = (await ScriptAsync("start", LoopbackPorts.Unassigned())).Trim();
    }

    public async Task DisposeAsync()
    {
        if (_started) await ScriptAsync("stop", 0);
    }

    Task<string> ScriptAsync(string verb, int port)
    {
        var repository = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(ServerProcess.Project)!, "..", ".."));
        var start = new ProcessStartInfo(Path.Combine(repository, "scripts", "start-test-postgres.sh"), [verb]);
        start.Environment["IFI_TEST_PG_DIR"] = _directory;
        start.Environment["IFI_TEST_PG_PORT"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        return ServerProcess.RunToEndAsync(start, TimeSpan.FromMinutes(2));
    }
}
