using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.RegularExpressions;
using Dapper;
using IfiDashboard.Tests.Support;
using Npgsql;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// docs/deployment.md's example files (a fenced block after <c>&lt;!-- example: NAME --&gt;</c>), read as systemd reads
/// an EnvironmentFile, on top of the shipped unit's own <c>Environment=</c> lines, start the real server and collector
/// processes: the docs cannot drift from what the programs accept. Only what names this machine is replaced (addresses,
/// paths, the database, the key step 4 prints), and only for settings the docs or the unit already give.
/// </summary>
public sealed partial class DocsExamplesTests(TestPostgresServer postgres) : IClassFixture<TestPostgresServer>, IDisposable
{
    // The docs' site name: requests name it, as a browser would after DNS.
    const string SiteHost = "ifi.corp.example";
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(120);

    readonly string _directory = Directory.CreateTempSubdirectory("ifi-docs-").FullName;

    [Fact]
    public async Task The_single_box_example_starts_a_server_with_sign_in_and_an_encrypted_key_ring()
    {
        var port = LoopbackPorts.Unassigned();
        var settings = Settings("ifidashboard-server.service", "single-box.env", new()
        {
            ["Urls"] = $"http://127.0.0.1:{port}",
            ["Store__ConnectionString"] = $"Data Source={Path.Combine(_directory, "data", "ifidashboard.db")}",
            ["DataProtection__CertificatePath"] = await KeyRingCertificateAsync(),
        });
        Assert.Contains("Credentials__fleet_reader__AllowedHosts__0", settings.Keys);
        Assert.Contains("Auth__Oidc__Authority", settings.Keys);

        await using var server = ServerProcess.Start(ServerProcess.BuildOutput, _directory, settings);
        await WaitUntilReadyAsync(server, $"http://127.0.0.1:{port}/");

        Assert.DoesNotContain("Sign-in is not configured", server.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("No XML encryptor configured", server.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("AllowedHosts is '*'", server.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_shared_examples_start_a_server_on_postgres_and_a_collector_that_leases_from_it()
    {
        var database = "ifi_docs_" + Guid.NewGuid().ToString("N")[..12];
        await using (var admin = new NpgsqlConnection(postgres.ConnectionString))
            await admin.ExecuteAsync($"CREATE DATABASE {database};");
        var store = new NpgsqlConnectionStringBuilder(postgres.ConnectionString) { Database = database }.ConnectionString;
        var port = LoopbackPorts.Unassigned();
        var server = Settings("ifidashboard-server.service", "server.env", new()
        {
            ["Urls"] = $"http://127.0.0.1:{port}",
            ["Store__ConnectionString"] = store,
            ["DataProtection__KeysDirectory"] = Path.Combine(_directory, "keys"),
            ["DataProtection__CertificatePath"] = await KeyRingCertificateAsync(),
            // The collector reaches this server by address, not by the docs' name, which has no DNS here.
            ["AllowedHosts"] = SiteHost + ";127.0.0.1",
        });

        await using var serverProcess = ServerProcess.Start(ServerProcess.BuildOutput, _directory, server);
        await WaitUntilReadyAsync(serverProcess, $"http://127.0.0.1:{port}/");
        var key = await CollectorKeyAsync(server);
        var collector = Settings("ifidashboard-collector.service", "collector.env", new()
        {
            ["Collector__ServerUrl"] = $"http://127.0.0.1:{port}/",
            ["Collector__ApiKey"] = key,
            ["Collector__Outbox__Directory"] = Path.Combine(_directory, "outbox"),
        });
        // A credential without an allow-list is used nowhere: the docs' collector would poll nothing.
        Assert.Contains("Credentials__fleet_reader__AllowedHosts__0", collector.Keys);
        await using var collectorProcess = StartCollector(collector);

        await WaitForLeaseAsync(store, collector["Collector__Name"], collectorProcess);
        Assert.DoesNotContain(collectorProcess.ErrorLines, l => l.Length > 0);
    }

    /// <summary>
    /// The unit's <c>Environment=</c> lines, then the docs' example file over them (as systemd applies
    /// <c>EnvironmentFile=</c> after <c>Environment=</c>), then the replacements, each of a setting one of them gives.
    /// </summary>
    static Dictionary<string, string> Settings(string unit, string example, Dictionary<string, string> replacements)
    {
        var settings = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var line in File.ReadAllLines(Path.Combine(RepositoryRoot.Path, "deploy", "systemd", unit)))
            if (line.StartsWith("Environment=", StringComparison.Ordinal))
                Assign(settings, Unquote(line["Environment=".Length..]));
        var lines = Example(example);
        Assert.NotEmpty(lines);
        foreach (var line in lines.Where(l => l.Length > 0 && !l.StartsWith('#')))
        {
            Assert.DoesNotMatch(@"\s#", line);
            Assign(settings, line);
        }
        foreach (var (name, value) in replacements)
        {
            Assert.True(settings.ContainsKey(name), $"{name} is in neither {unit} nor the docs' {example}: the test may only replace");
            settings[name] = value;
        }
        return settings;
    }

    static void Assign(Dictionary<string, string> settings, string assignment)
    {
        var at = assignment.IndexOf('=');
        Assert.True(at > 0, $"not NAME=value: {assignment}");
        settings[assignment[..at]] = Unquote(assignment[(at + 1)..].Trim());
    }

    static string Unquote(string value) =>
        value.Length >= 2 && (value[0] == '"' || value[0] == '\'') && value[^1] == value[0] ? value[1..^1] : value;

    /// <summary>The lines of the fenced block that follows <c>&lt;!-- example: NAME --&gt;</c> in docs/deployment.md.</summary>
    static List<string> Example(string name)
    {
        var lines = File.ReadAllLines(Path.Combine(RepositoryRoot.Path, "docs", "deployment.md")).Select(l => l.Trim()).ToList();
        var marker = lines.FindIndex(l => l == $"<!-- example: {name} -->");
        Assert.True(marker >= 0, $"docs/deployment.md has no example named {name}");
        Assert.Matches(Fence(), lines[marker + 1]);
        return lines.Skip(marker + 2).TakeWhile(l => l != "```").ToList();
    }

    [GeneratedRegex("^```[a-z]*$")]
    private static partial Regex Fence();

    /// <summary>A PEM with the certificate and its key, as the key ring section makes it with openssl.</summary>
    async Task<string> KeyRingCertificateAsync()
    {
        using var rsa = RSA.Create(2048);
        var request = new CertificateRequest("CN=ifidashboard-key-ring", rsa, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddYears(1));
        var path = Path.Combine(_directory, "key-ring.pem");
        await File.WriteAllTextAsync(path, certificate.ExportCertificatePem() + "\n" + rsa.ExportPkcs8PrivateKeyPem() + "\n");
        return path;
    }

    /// <summary>Step 4: the server's CLI, with the server's settings, issues the collector's key and prints it once.</summary>
    async Task<string> CollectorKeyAsync(Dictionary<string, string> server)
    {
        await using var cli = ServerProcess.Start(ServerProcess.BuildOutput, _directory, server,
            "api-key", "create", "--name", "collector-lyon", "--scopes", "snapshot:ingest", "--collector", "collector-lyon");
        await cli.WaitForExitAsync(StartTimeout);
        Assert.True(cli.ExitCode == 0, cli.Output);
        return cli.Output.Split('\n').Select(l => l.Replace("stdout| ", "")).Single(l => l.StartsWith("ifi_", StringComparison.Ordinal));
    }

    ServerProcess StartCollector(Dictionary<string, string> settings)
    {
        // The collector's own appsettings.json, in a content root of its own (the test output's is the server's).
        var root = Path.Combine(_directory, "collector");
        Directory.CreateDirectory(root);
        File.Copy(Path.Combine(RepositoryRoot.Path, "src", "Collector", "appsettings.json"), Path.Combine(root, "appsettings.json"));
        return ServerProcess.StartProgram(Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Collector.dll"), _directory, settings,
            "--contentRoot", root);
    }

    /// <summary>Waits for <c>/readyz</c> to answer 200 to a request naming the site, as a browser sends it.</summary>
    static async Task WaitUntilReadyAsync(ServerProcess server, string baseUrl)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        var deadline = DateTime.UtcNow + StartTimeout;
        while (true)
        {
            Assert.False(server.HasExited, $"the server exited:\n{server.Output}");
            try
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, baseUrl + "readyz");
                request.Headers.Host = SiteHost;
                if ((await http.SendAsync(request)).StatusCode == HttpStatusCode.OK) return;
            }
            catch (HttpRequestException) { }
            catch (TaskCanceledException) { }
            Assert.True(DateTime.UtcNow < deadline, $"not ready after {StartTimeout.TotalSeconds} s:\n{server.Output}");
            await Task.Delay(200);
        }
    }

    /// <summary>Waits until the server has recorded a lease request of the collector (its row in <c>collectors</c>).</summary>
    static async Task WaitForLeaseAsync(string store, string name, ServerProcess collector)
    {
        await using var connection = new NpgsqlConnection(store);
        var deadline = DateTime.UtcNow + StartTimeout;
        while (await connection.ExecuteScalarAsync<string?>(
                   "SELECT last_lease_at FROM collectors WHERE name = @name;", new { name }) is null)
        {
            Assert.False(collector.HasExited, $"the collector exited:\n{collector.Output}");
            Assert.True(DateTime.UtcNow < deadline, $"no lease from {name} after {StartTimeout.TotalSeconds} s:\n{collector.Output}");
            await Task.Delay(200);
        }
    }

    public void Dispose()
    {
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}
