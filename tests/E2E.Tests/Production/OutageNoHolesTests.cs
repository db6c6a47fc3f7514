using System.Diagnostics;
using System.Globalization;
using Dapper;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;
using IfiDashboard.Tests.Support;
using Npgsql;
using Xunit.Abstractions;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// Outages leave no holes, with real processes: two servers on one PostgreSQL store of the test's own, two standalone
/// collectors each given both servers (<c>Collector:ServerUrls</c>), a simulated fleet polled every 30 s. Both servers
/// are stopped for longer than a poll interval, then PostgreSQL is stopped as long and started again. Every poll the
/// simulated instances saw (a login) must be stored once, no instance polled by both collectors at once, and no
/// snapshot left set aside. The counts are printed (docs/benchmarks.md, "Outages leave no holes").
/// </summary>
[Collection(OutageCollection.Name)]
public sealed class OutageNoHolesTests(ITestOutputHelper output) : IAsyncLifetime
{
    const int Instances = 12;
    const int IntervalSeconds = 30;
    const string Login = "ifi_collector";
    const string Password = "Outage-Holes-Pw1";
    static readonly string AdminKey = "outage-bootstrap-" + Guid.NewGuid().ToString("N");
    static readonly string[] Collectors = ["outage-c1", "outage-c2"];
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(120);
    const int DrainSeconds = 180;

    readonly string _root = Directory.CreateTempSubdirectory("ifi-outage-").FullName;
    readonly int _postgresPort = LoopbackPorts.Unassigned();
    readonly Dictionary<string, (ServerProcess Process, string Url)> _servers = [];
    readonly List<CollectorProcess> _collectors = [];
    FleetSimulator _fleet = null!;
    string _store = "";

    // Not under _root: a temporary subdirectory is its creator's only, and as root the script runs PostgreSQL as postgres.
    readonly string _postgresDirectory = Path.Combine(Path.GetTempPath(), "ifi-outage-postgres-" + Guid.NewGuid().ToString("N")[..8]);
    string Outbox(string collector) => Path.Combine(_root, collector, "outbox");
    static string Name(int i) => $"OUT{i:00}";
    static string KeyOf(string collector) => $"outage-collector-key-{collector}-0123456789";

    public async Task InitializeAsync()
    {
        var admin = (await PostgresAsync("start")).Trim();
        await using (var connection = new NpgsqlConnection(admin))
            await connection.ExecuteAsync("CREATE DATABASE ifi_outage;");
        _store = new NpgsqlConnectionStringBuilder(admin) { Database = "ifi_outage" }.ConnectionString;
        _fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = Login, Password = Password }],
            Instances = [.. Enumerable.Range(1, Instances).Select(i => new ScenarioInstance { Name = Name(i), Profile = "2019", IfiEnabled = true })],
        }, _ => { });
    }

    [Fact]
    public async Task Every_poll_made_through_a_stop_of_both_servers_and_a_restart_of_postgres_is_stored_once()
    {
        foreach (var name in new[] { "server-a", "server-b" })
        {
            var directory = Directory.CreateDirectory(Path.Combine(_root, name)).FullName;
            var (process, url) = await ServerProcess.StartOnFreePortAsync(ServerProcess.BuildOutput, directory, url => Arguments(url), StartTimeout);
            _servers[name] = (process, url);
        }
        using var api = await ProductionApi.ClientAsync(_servers["server-a"].Url, AdminKey, "outage");
        for (var i = 1; i <= Instances; i++)
            await RegisterAsync(api, i);
        var urls = _servers.Values.Select(s => s.Url).ToList();
        _collectors.Add(StartCollector(Collectors[0], urls));
        _collectors.Add(StartCollector(Collectors[1], [.. Enumerable.Reverse(urls)]));
        var everyInstancePolled = await Eventually.WaitAsync(InstancesWithAPollAsync, n => n == Instances, 120, ProductionApi.ReadEvery);
        Assert.True(everyInstancePolled == Instances, $"{everyInstancePolled} of {Instances} instances polled before the outages:\n{Logs()}");

        // Both servers stopped: the collectors poll on into their outboxes.
        foreach (var (process, _) in _servers.Values) await process.DisposeAsync();
        await LastsUntilEveryInstanceIsPolledAsync("both servers stopped");
        foreach (var name in _servers.Keys.ToList())
        {
            var (_, url) = _servers[name];
            var process = ServerProcess.Start(ServerProcess.BuildOutput, Path.Combine(_root, name), Arguments(url.TrimEnd('/')));
            await process.WaitUntilHealthyAsync(url, StartTimeout);
            _servers[name] = (process, url);
        }
        await Eventually.WaitAsync(() => QueuedSnapshots(), n => n == 0, DrainSeconds);
        // Every instance leased again since the outage (a collector forgets what it may have lost meanwhile).
        var sinceServersBack = DateTimeOffset.UtcNow;
        await Eventually.WaitAsync(() => InstancesPolledSinceAsync(sinceServersBack), n => n == Instances, 120, ProductionApi.ReadEvery);

        // PostgreSQL stopped and started on its files: the servers answer 503, the collectors ride through.
        await PostgresAsync("down");
        await LastsUntilEveryInstanceIsPolledAsync("PostgreSQL stopped");
        await PostgresAsync("up");
        // A poll of each instance started after the store came back is stored: each collector delivers an instance's
        // snapshots oldest first, so every poll of it started before that has been delivered (or set aside) by then.
        var cut = DateTimeOffset.UtcNow;
        var drained = await Eventually.WaitAsync(async () => (Queued: QueuedSnapshots(), Late: await InstancesPolledSinceAsync(cut)),
            d => d.Queued == 0 && d.Late == Instances, DrainSeconds, ProductionApi.ReadEvery);

        // Every poll an instance saw before the cut (its login), matched with a stored poll that started just before it.
        var stored = await StoredPollsAsync();
        var holes = new List<string>();
        var logins = 0;
        foreach (var instance in _fleet.Instances)
        {
            var seen = instance.Transcript.Entries.Where(e => e.Kind == TranscriptKinds.Login && e.At < cut).Select(e => e.At).ToList();
            logins += seen.Count;
            var polls = stored.Where(p => p.Instance == instance.Name).ToList();
            holes.AddRange(seen.Where(at => !polls.Any(p => p.StartedAt <= at && at - p.StartedAt < TimeSpan.FromSeconds(15)))
                .Select(at => $"{instance.Name} polled at {at:O}"));
        }
        var storedBeforeCut = stored.Count(p => p.StartedAt < cut);
        var doubles = stored.GroupBy(p => p.Instance)
            .SelectMany(g => g.OrderBy(p => p.StartedAt).Zip(g.OrderBy(p => p.StartedAt).Skip(1)))
            .Where(pair => pair.Second.StartedAt - pair.First.StartedAt < TimeSpan.FromSeconds(IntervalSeconds / 2.0) && pair.First.Collector != pair.Second.Collector)
            .ToList();
        var refused = Collectors.SelectMany(c => Directory.GetFiles(Outbox(c), "*.refused")).ToList();
        output.WriteLine($"{Instances} instances, {Collectors.Length} collectors, 2 servers: " +
            $"{logins} polls seen by the instances before the cut, {storedBeforeCut} stored before it; {holes.Count} holes; " +
            $"{doubles.Count} polls stored twice (two collectors within half an interval); {refused.Count} .refused files; " +
            $"{drained.Queued} snapshots still queued");

        Assert.True(holes.Count == 0, $"{holes.Count} polls not stored:\n{string.Join('\n', holes)}\n{Logs()}");
        Assert.True(doubles.Count == 0, $"{doubles.Count} double polls:\n{string.Join('\n', doubles)}");
        Assert.True(refused.Count == 0, $"{refused.Count} refused:\n{string.Join('\n', refused)}\n{Logs()}");
        Assert.Equal(0, drained.Queued);
    }

    /// <summary>An outage lasts until every instance has been polled in it (within about a poll interval).</summary>
    async Task LastsUntilEveryInstanceIsPolledAsync(string outage)
    {
        var since = DateTimeOffset.UtcNow;
        var polled = await Eventually.WaitAsync(() => _fleet.Instances.Count(i => i.Transcript.Entries.Any(e => e.Kind == TranscriptKinds.Login && e.At > since)),
            n => n == Instances, 120);
        output.WriteLine($"{outage}: {(DateTimeOffset.UtcNow - since).TotalSeconds:0} s, {polled} of {Instances} instances polled meanwhile");
        Assert.True(polled == Instances, $"{outage}: {polled} of {Instances} instances polled:\n{Logs()}");
    }

    string[] Arguments(string url) =>
    [
        "--urls", url,
        "--Store:Provider=Postgres", $"--Store:ConnectionString={_store}",
        $"--Api:BootstrapAdminKey={AdminKey}",
        "--Collector:Enabled=false",
        .. Collectors.Select(c => $"--Ingestion:ApiKeys:{c}={KeyOf(c)}"),
    ];

    CollectorProcess StartCollector(string name, IReadOnlyList<string> serverUrls)
    {
        var settings = new Dictionary<string, string>
        {
            ["Collector__ApiKey"] = KeyOf(name),
            ["Collector__Name"] = name,
            ["Collector__Outbox__Directory"] = Outbox(name),
            // Redelivery soon after the store is back, not after the default 60-s backoff.
            ["Collector__Outbox__MaxBackoffSeconds"] = "5",
            ["Credentials__fleet__UserId"] = Login,
            ["Credentials__fleet__Password"] = Password,
            ["Credentials__fleet__AllowedHosts__0"] = LoopbackPorts.AllowListEntry,
            ["Credentials__fleet__AllowTrustServerCertificate"] = "true",
        };
        for (var i = 0; i < serverUrls.Count; i++)
            settings[$"Collector__ServerUrls__{i}"] = serverUrls[i];
        return CollectorProcess.Start(settings);
    }

    int QueuedSnapshots() => Collectors.Sum(c => Directory.Exists(Outbox(c)) ? Directory.GetFiles(Outbox(c), "*.snapshot.json").Length : 0);

    string Logs() => string.Join("\n---\n", _collectors.Select(c => c.Log));

    sealed record StoredPoll(string Instance, string Collector, DateTimeOffset StartedAt);

    async Task<List<StoredPoll>> StoredPollsAsync()
    {
        await using var connection = new NpgsqlConnection(_store);
        var rows = await connection.QueryAsync<(string Instance, string Collector, string StartedAt)>(
            "SELECT i.name, p.collector_name, p.started_at FROM polls p JOIN instances i ON i.id = p.instance_id;");
        return rows.Select(r => new StoredPoll(r.Instance, r.Collector, DateTimeOffset.Parse(r.StartedAt, CultureInfo.InvariantCulture))).ToList();
    }

    async Task<int> InstancesWithAPollAsync()
    {
        try
        {
            return (await StoredPollsAsync()).Select(p => p.Instance).Distinct().Count();
        }
        catch (NpgsqlException)
        {
            return 0;
        }
    }

    async Task<int> InstancesPolledSinceAsync(DateTimeOffset since)
    {
        try
        {
            return (await StoredPollsAsync()).Where(p => p.StartedAt >= since).Select(p => p.Instance).Distinct().Count();
        }
        catch (NpgsqlException)
        {
            return 0; // the store is not back yet
        }
    }

    Task RegisterAsync(HttpClient api, int i) => ProductionApi.RegisterAsync(api, Name(i), _fleet[Name(i)].Port, IntervalSeconds);

    /// <summary>scripts/start-test-postgres.sh on a server of this test's own: restarting it disturbs no other test.</summary>
    Task<string> PostgresAsync(string verb)
    {
        var start = new ProcessStartInfo(Path.Combine(RepositoryRoot.Path, "scripts", "start-test-postgres.sh"), [verb]);
        start.Environment["IFI_TEST_PG_DIR"] = _postgresDirectory;
        start.Environment["IFI_TEST_PG_PORT"] = _postgresPort.ToString(CultureInfo.InvariantCulture);
        return ServerProcess.RunToEndAsync(start, TimeSpan.FromMinutes(2));
    }

    public async Task DisposeAsync()
    {
        foreach (var collector in _collectors) await collector.DisposeAsync();
        foreach (var (process, _) in _servers.Values) await process.DisposeAsync();
        if (_fleet is not null) await _fleet.DisposeAsync();
        NpgsqlConnection.ClearAllPools();
        await PostgresAsync("stop");
        try { Directory.Delete(_root, recursive: true); } catch (IOException) { }
    }
}

/// <summary>Started before the other collections: the test waits on poll intervals and outages, not the processor.</summary>
[CollectionDefinition(Name)]
[MostlyWaits]
public sealed class OutageCollection
{
    public const string Name = "outages leave no holes";
}
