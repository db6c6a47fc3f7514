using System.Net.Http.Json;
using System.Text.Json;
using Dapper;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using Npgsql;
using Xunit.Abstractions;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// Two real server processes on one PostgreSQL database, each with its embedded collector and alerts towards one real
/// SMTP server, over a simulated fleet that loses IFI and gets it back: every alert mail is delivered once, both
/// servers answer the same status, and a server killed while it delivers leaves the other to finish the outbox.
/// </summary>
[Collection(TwoServersCollection.Name)]
public sealed class TwoServersOneStoreTests(TestPostgresServer postgres, ITestOutputHelper output) : IClassFixture<TestPostgresServer>, IAsyncLifetime
{
    const int Instances = 12;
    const string Login = "ifi_collector";
    const string Password = "Two-Servers-Pw1";
    static readonly string AdminKey = "two-servers-bootstrap-" + Guid.NewGuid().ToString("N");
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(120);

    // A change in the fleet is verified at once ("verify now"), then assessed and its alerts evaluated; the 30-s poll
    // interval (the shortest) is what a server taking over a killed one's instances polls them by. A row claimed by a
    // killed server is due again after its claim (at least 60 s, OutboxDelivery.ClaimFor).
    const int ChangeSeconds = 120;
    const int ClaimRunsOutSeconds = 180;

    readonly string _root = Directory.CreateTempSubdirectory("ifi-two-servers-").FullName;
    readonly string _database = "ifi_two_" + Guid.NewGuid().ToString("N")[..12];
    readonly List<ServerProcess> _processes = [];
    FleetSimulator _fleet = null!;
    SmtpSink _smtp = null!;
    string _store = "";

    static string Name(int i) => $"TWO{i:00}";
    static readonly string[] Names = [.. Enumerable.Range(1, Instances).Select(Name)];

    public async Task InitializeAsync()
    {
        await using (var admin = new NpgsqlConnection(postgres.ConnectionString))
            await admin.ExecuteAsync($"CREATE DATABASE {_database};");
        _store = new NpgsqlConnectionStringBuilder(postgres.ConnectionString) { Database = _database }.ConnectionString;
        _fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = Login, Password = Password }],
            Instances = [.. Enumerable.Range(1, Instances).Select(i => new ScenarioInstance { Name = Name(i), Profile = "2019", IfiEnabled = true })],
        }, _ => { });
        // A relay that takes a second over each mail: a server killed after its first one is still in its batch.
        _smtp = SmtpSink.Create(SinkMode.None);
        _smtp.AcceptDelay = TimeSpan.FromSeconds(1);
        await _smtp.StartAsync();
    }

    [Fact]
    public async Task Two_servers_on_one_postgres_store_send_each_alert_once_and_one_finishes_what_a_killed_one_was_sending()
    {
        var started = await Task.WhenAll(StartAsync("server-a"), StartAsync("server-b"));
        var (first, firstUrl) = started[0];
        var (second, secondUrl) = started[1];
        using var firstApi = await ApiClientAsync(firstUrl);
        using var secondApi = await ApiClientAsync(secondUrl, firstApi.DefaultRequestHeaders.GetValues("X-Api-Key").Single());
        for (var i = 1; i <= Instances; i++)
            await RegisterAsync(firstApi, i);

        var compliant = await BothAnswerAsync(firstApi, secondApi, "Compliant");
        Assert.True(compliant.Agree, compliant.Because);

        // Every instance loses IFI: one Opened mail each, from whichever server claims its row.
        for (var i = 1; i <= Instances; i++)
            _fleet.Update(Name(i), instance => instance.IfiEnabled = false);
        await ProductionApi.VerifyNowAsync(firstApi, Names);
        var nonCompliant = await BothAnswerAsync(firstApi, secondApi, "NonCompliant");
        var opened = await RowsSentAsync("Opened");
        var openedMail = await Eventually.WaitAsync(() => _smtp.Messages(), m => m.Count >= Instances, ChangeSeconds);

        Assert.True(nonCompliant.Agree, nonCompliant.Because);
        Assert.True(opened.Count == Instances, $"{opened.Count} Opened rows for {Instances} instances:\n{await OutboxHistoryAsync()}");
        Assert.All(opened, row => Assert.Equal((OutboxStatusSent, 1), (row.Status, row.Attempts)));
        Assert.Equal(opened.Select(r => r.MessageId).Order(), openedMail.Select(m => MessageIdOf(m)).Order());

        // IFI comes back: one Resolved mail each. Whichever server hands one to the relay first is killed at once, so
        // it dies in the middle of its delivery batch; the other must finish.
        var acceptedBefore = (First: Accepted(first), Second: Accepted(second));
        for (var i = 1; i <= Instances; i++)
            _fleet.Update(Name(i), instance => instance.IfiEnabled = true);
        await ProductionApi.VerifyNowAsync(firstApi, Names);
        var delivering = await Eventually.WaitAsync(() => (First: Accepted(first), Second: Accepted(second)),
            now => now.First > acceptedBefore.First || now.Second > acceptedBefore.Second, ChangeSeconds);
        var (killed, survivor, survivorApi) = delivering.First > acceptedBefore.First
            ? (first, second, secondApi)
            : (second, first, firstApi);
        Assert.True(delivering != acceptedBefore, $"no server sent a Resolved mail:\n{first.Output}\n{second.Output}");
        _processes.Remove(killed);
        await killed.DisposeAsync(); // Process.Kill of the whole process tree: no shutdown, no release of its claims
        var pendingAtKill = (await OutboxAsync("Resolved")).Count(r => r.Status == "Pending");

        var resolved = await RowsSentAsync("Resolved", ClaimRunsOutSeconds);
        var resolvedIds = resolved.Select(r => r.MessageId).ToHashSet();
        var resolvedMail = await Eventually.WaitAsync(() => _smtp.Messages().Where(m => resolvedIds.Contains(MessageIdOf(m))).ToList(),
            m => m.Select(MessageIdOf).Distinct().Count() >= Instances, ChangeSeconds);
        var compliantAgain = await Eventually.WaitAsync(() => StatusAsync(survivorApi), a => a.All(s => s == "Compliant"), ChangeSeconds, ProductionApi.ReadEvery);

        Assert.Equal(Instances, resolved.Count);
        Assert.All(resolved, row => Assert.Equal(OutboxStatusSent, row.Status));
        Assert.Equal(resolvedIds.Order(), resolvedMail.Select(MessageIdOf).Distinct().Order());
        // At least once: the killed server claims one row at a time, so at most the one it had handed to the relay
        // and not yet marked sent goes out twice.
        var duplicates = resolvedMail.Count - Instances;
        output.WriteLine($"Resolved: {Instances} rows, {pendingAtKill} still pending when a server was killed; {resolvedMail.Count} mails ({duplicates} duplicate)");
        Assert.True(duplicates is 0 or 1, $"{duplicates} duplicate Resolved mails");
        Assert.All(compliantAgain, status => Assert.Equal("Compliant", status));
        Assert.False(survivor.HasExited, survivor.Output);
    }

    const string OutboxStatusSent = "Sent";

    sealed record OutboxRowState(string MessageId, string Status, int Attempts);

    async Task<(ServerProcess Process, string BaseUrl)> StartAsync(string name)
    {
        var workingDirectory = Directory.CreateDirectory(Path.Combine(_root, name)).FullName;
        var (process, baseUrl) = await ServerProcess.StartOnFreePortAsync(ServerProcess.BuildOutput, workingDirectory, url =>
        [
            "--urls", url,
            "--Store:Provider=Postgres", $"--Store:ConnectionString={_store}",
            $"--Api:BootstrapAdminKey={AdminKey}",
            // The test asks every instance's status of both servers once a second until a change shows.
            "--Api:RateLimit:PermitLimit=1000000",
            "--Collector:Enabled=true", $"--Collector:Name={name}",
            // The killed server's instances pass to the survivor once its collector has been silent this long (the
            // default, 2 minutes, is as long as the test waits for a change).
            "--Ingestion:TakeoverDelay=00:00:20",
            $"--Credentials:fleet:UserId={Login}", $"--Credentials:fleet:Password={Password}",
            "--Credentials:fleet:AllowedHosts:0=127.0.0.1:1024-65535", "--Credentials:fleet:AllowTrustServerCertificate=true",
            "--Alerts:Enabled=true", "--Alerts:DashboardUrl=https://ifi.example.test/",
            "--Alerts:DefaultTo:0=dba@example.test", "--Alerts:Smtp:Host=127.0.0.1",
            $"--Alerts:Smtp:Port={_smtp.Port}", "--Alerts:Smtp:Security=None", "--Alerts:Smtp:From=ifi@example.test",
            // One mail per instance, not one storm summary: the test counts each instance's mail.
            "--Alerts:Storm:Threshold=1000",
        ], StartTimeout);
        lock (_processes) _processes.Add(process);
        return (process, baseUrl);
    }

    static int Accepted(ServerProcess server) =>
        server.Output.Split('\n').Count(line => line.Contains("accepted by the relay", StringComparison.Ordinal));

    /// <summary>The outbox row's message id: the header is <c>&lt;id@domain-of-From&gt;</c>.</summary>
    static string MessageIdOf(ReceivedMail mail) => mail.MessageId.Trim('<', '>').Split('@')[0];

    static Task<HttpClient> ApiClientAsync(string baseUrl, string? key = null) => ProductionApi.ClientAsync(baseUrl, AdminKey, "two-servers", key);

    Task RegisterAsync(HttpClient api, int i) => ProductionApi.RegisterAsync(api, Name(i), _fleet[Name(i)].Port, pollIntervalSeconds: 30);

    static async Task<List<string>> StatusAsync(HttpClient api)
    {
        var statuses = new List<string>();
        for (var i = 1; i <= Instances; i++)
        {
            var response = await api.GetAsync($"api/v1/compliance/instances/{Name(i)}");
            statuses.Add(response.IsSuccessStatusCode
                ? (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("status").GetString()!
                : $"HTTP {(int)response.StatusCode}");
        }
        return statuses;
    }

    /// <summary>Waits until both servers answer <paramref name="expected"/> for every instance.</summary>
    static async Task<(bool Agree, string Because)> BothAnswerAsync(HttpClient first, HttpClient second, string expected)
    {
        var answers = await Eventually.WaitAsync(async () => (First: await StatusAsync(first), Second: await StatusAsync(second)),
            a => a.First.Concat(a.Second).All(s => s == expected), ChangeSeconds, ProductionApi.ReadEvery);
        return (answers.First.Concat(answers.Second).All(s => s == expected),
            $"expected {expected} from both: first {string.Join(',', answers.First)}; second {string.Join(',', answers.Second)}");
    }

    /// <summary>The outbox rows of one kind, once there is one per instance and none is still pending.</summary>
    Task<List<OutboxRowState>> RowsSentAsync(string kind, int seconds = ChangeSeconds) =>
        Eventually.WaitAsync(() => OutboxAsync(kind), rows => rows.Count >= Instances && rows.All(r => r.Status != "Pending"), seconds, ProductionApi.ReadEvery);

    async Task<List<OutboxRowState>> OutboxAsync(string kind)
    {
        await using var connection = new NpgsqlConnection(_store);
        return (await connection.QueryAsync<OutboxRowState>(
            "SELECT message_id AS MessageId, status AS Status, CAST(attempts AS INTEGER) AS Attempts FROM alert_outbox WHERE kind = @kind;",
            new { kind })).ToList();
    }

    /// <summary>Every outbox row in the order written, for a failure's message.</summary>
    async Task<string> OutboxHistoryAsync()
    {
        await using var connection = new NpgsqlConnection(_store);
        var rows = await connection.QueryAsync<(long Id, string Kind, string? Instance, string? Rule, string DedupeKey, string Status)>(
            "SELECT id, kind, instance_name, rule, dedupe_key, status FROM alert_outbox ORDER BY id;");
        return string.Join('\n', rows.Select(r => $"{r.Id} {r.Kind} {r.Instance} {r.Rule} {r.DedupeKey} {r.Status}"));
    }

    public async Task DisposeAsync()
    {
        foreach (var process in _processes) await process.DisposeAsync();
        await _smtp.DisposeAsync();
        await _fleet.DisposeAsync();
        NpgsqlConnection.ClearAllPools();
        await using (var admin = new NpgsqlConnection(postgres.ConnectionString))
            await admin.ExecuteAsync($"DROP DATABASE IF EXISTS {_database} WITH (FORCE);");
        try { Directory.Delete(_root, recursive: true); } catch (IOException) { }
    }
}

/// <summary>Started before the other collections: the test waits on poll intervals and claim expiry, not the processor.</summary>
[CollectionDefinition(Name)]
[MostlyWaits]
public sealed class TwoServersCollection
{
    public const string Name = "two servers on one store";
}
