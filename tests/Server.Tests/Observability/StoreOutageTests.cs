using System.Net;
using IfiDashboard.Store;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Server.Tests.Store;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Data.Sqlite;
using IfiDashboard.Tests.Support;
using Npgsql;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Server.Tests.Observability;

/// <summary>
/// The store goes away under a running server and comes back: on SQLite its file is replaced by a folder, on PostgreSQL
/// the test's own database stops taking connections. Readiness probes, page loads and the background assessment all
/// meet the outage; the log has one line when it starts and one when it ends, no stack trace, and the pages say the
/// store is away and how old their data is, without naming where the store is.
/// </summary>
[Trait(TestDatabase.PostgresPassTrait, TestDatabase.PostgresPassValue)]
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class StoreOutageTests
{
    const string Availability = "IfiDashboard.Server.Store.StoreAvailability";

    [Fact]
    public async Task An_outage_logs_one_line_when_it_starts_and_one_when_it_ends_and_the_pages_say_so_without_the_stores_address()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "outage-1", Profile = "2019", IfiEnabled = false });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var probe = TestSignIn.Anonymous(host.CreateClient());
        var viewer = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer);
        Assert.Equal("ready", await probe.GetStringAsync("/readyz"));
        Assert.DoesNotContain("data-store-unavailable", await viewer.GetStringAsync("/"), StringComparison.Ordinal);

        var outage = StoreOutage.Begin(host.Store);
        var probes = new List<HttpStatusCode>();
        for (var i = 0; i < 3; i++)
            probes.Add((await probe.GetAsync("/readyz")).StatusCode);
        var overview = await viewer.GetStringAsync("/");
        var inventory = await viewer.GetStringAsync("/inventory");
        outage.End();
        var readyAgain = await probe.GetStringAsync("/readyz");
        var overviewAfter = await viewer.GetStringAsync("/");

        Assert.All(probes, status => Assert.Equal(HttpStatusCode.ServiceUnavailable, status));
        Assert.Contains("Store unavailable, showing data as of", overview, StringComparison.Ordinal);
        Assert.Contains("Store unavailable, showing data as of", inventory, StringComparison.Ordinal);
        Assert.Contains("The inventory could not be read: the store is unavailable (trace id", inventory, StringComparison.Ordinal);
        foreach (var page in new[] { overview, inventory })
            foreach (var address in outage.Addresses)
                Assert.DoesNotContain(address, page, StringComparison.OrdinalIgnoreCase);
        Assert.Equal("ready", readyAgain);
        Assert.DoesNotContain("data-store-unavailable", overviewAfter, StringComparison.Ordinal);

        var lines = host.Logs.All.Split('\n');
        var started = Assert.Single(lines, l => l.StartsWith($"Error {Availability}: The store is unavailable", StringComparison.Ordinal));
        Assert.Single(lines, l => l.StartsWith($"Information {Availability}: The store is available again after", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.Contains("Microsoft.Extensions.Diagnostics.HealthChecks", StringComparison.Ordinal));
        // Each entry is one line: a logged exception would have brought its stack trace ("   at ...") along.
        Assert.DoesNotContain(lines, l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal) && l.Contains("HealthCheck", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.Contains("PageFailures", StringComparison.Ordinal) && !l.StartsWith("Debug", StringComparison.Ordinal));
        Assert.EndsWith(" ", started, StringComparison.Ordinal); // CapturedLogs appends the exception after a space: none
    }

    /// <summary>
    /// API requests that need the store while it is away: each is refused with a 503 problem detail that names neither
    /// the store nor a lock it does not hold, and the log still has the outage's two lines, not a line per request. On
    /// PostgreSQL the server reaches its store through a relay that goes down, so connections are refused as when the
    /// database server stops (the case Npgsql reports as transient); on SQLite the file is taken away.
    /// </summary>
    [Fact]
    public async Task Requests_that_meet_an_outage_are_refused_with_503_and_the_log_keeps_the_outages_two_lines()
    {
        await using var relay = TestDatabase.IsPostgres ? new SwitchableRelay(LoopbackPorts.Unassigned(), PostgresPort()) : null;
        await using var host = new DashboardHost(new ScenarioInstance { Name = "outage-2", Profile = "2019", IfiEnabled = true })
        {
            // As the product runs: in Development the developer exception page logs every exception before its filters
            // see it, whatever the answer.
            Settings = { ["environment"] = "Production" },
            StoreConnectionAsGiven = connectionString => relay is null ? connectionString
                : new NpgsqlConnectionStringBuilder(connectionString) { Port = relay.Port, Host = "127.0.0.1" }.ConnectionString,
        };
        relay?.Up();
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var api = host.CreateClient();
        var probe = TestSignIn.Anonymous(host.CreateClient());
        Assert.Equal(HttpStatusCode.OK, (await api.GetAsync("/api/v1/changes")).StatusCode);

        var logBefore = host.Logs.All.Length;
        StoreOutage? outage = null;
        if (relay is not null)
        {
            await relay.DownAsync();
            NpgsqlConnection.ClearAllPools();
        }
        else
        {
            outage = StoreOutage.Begin(host.Store);
        }
        var refusals = new List<HttpResponseMessage>();
        for (var i = 0; i < 5; i++)
            refusals.Add(await api.GetAsync("/api/v1/changes"));
        var readyDuring = (await probe.GetAsync("/readyz")).StatusCode;
        if (relay is not null) relay.Up();
        else outage!.End();
        var readyAgain = await probe.GetStringAsync("/readyz");

        Assert.Equal(HttpStatusCode.ServiceUnavailable, readyDuring);
        foreach (var refusal in refusals)
        {
            Assert.Equal(HttpStatusCode.ServiceUnavailable, refusal.StatusCode);
            Assert.Equal("application/problem+json", refusal.Content.Headers.ContentType?.MediaType);
            Assert.NotNull(refusal.Headers.RetryAfter);
            var body = await refusal.Content.ReadAsStringAsync();
            Assert.Contains("The store is unavailable", body, StringComparison.Ordinal);
            Assert.DoesNotContain("write lock", body, StringComparison.Ordinal);
            Assert.DoesNotContain("127.0.0.1", body, StringComparison.Ordinal);
        }
        Assert.Equal("ready", readyAgain);
        var lines = host.Logs.All[logBefore..].Split('\n');
        Assert.Single(lines, l => l.StartsWith($"Error {Availability}: The store is unavailable", StringComparison.Ordinal));
        Assert.Single(lines, l => l.StartsWith($"Information {Availability}: The store is available again after", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.StartsWith("Warning ", StringComparison.Ordinal) || (l.StartsWith("Error ", StringComparison.Ordinal) && !l.Contains(Availability, StringComparison.Ordinal)));
    }

    static int PostgresPort() =>
        new NpgsqlConnectionStringBuilder(Environment.GetEnvironmentVariable(TestDatabase.ServerVariable)).Port;

    /// <summary>Takes the test's own store away, and brings it back as it was.</summary>
    sealed class StoreOutage
    {
        readonly TestDatabase _store;
        readonly string? _sqliteFile;
        readonly string? _postgresDatabase;

        StoreOutage(TestDatabase store)
        {
            _store = store;
            if (TestDatabase.IsPostgres)
                _postgresDatabase = new NpgsqlConnectionStringBuilder(store.ConnectionString).Database;
            else
                _sqliteFile = new SqliteConnectionStringBuilder(store.ConnectionString).DataSource;
        }

        /// <summary>What would tell a reader where the store is: its file or its server and database.</summary>
        public IReadOnlyList<string> Addresses => TestDatabase.IsPostgres
            ? [_postgresDatabase!, new NpgsqlConnectionStringBuilder(_store.ConnectionString).Host!, $":{new NpgsqlConnectionStringBuilder(_store.ConnectionString).Port}"]
            : [_sqliteFile!, Path.GetDirectoryName(_sqliteFile)!];

        public static StoreOutage Begin(TestDatabase store)
        {
            var outage = new StoreOutage(store);
            if (outage._postgresDatabase is { } database)
            {
                Admin($"ALTER DATABASE {database} ALLOW_CONNECTIONS false;");
                Admin($"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{database}' AND pid <> pg_backend_pid();");
                NpgsqlConnection.ClearAllPools();
            }
            else
            {
                // Closing the pooled connections checkpoints the WAL into the file, which then moves aside whole.
                SqliteConnection.ClearAllPools();
                Directory.CreateDirectory(outage.Aside);
                foreach (var file in outage.SqliteFiles.Where(File.Exists))
                    File.Move(file, Path.Combine(outage.Aside, Path.GetFileName(file)));
                Directory.CreateDirectory(outage._sqliteFile!); // where the store was, nothing SQLite can open
                // A background task (the timed assessment, the availability check) may have opened a connection
                // between the first clear and the move: it reads on from the moved file, and back in the pool it would
                // serve the page the test expects to fail (seen once under load). Clearing again disposes it, now if
                // idle or when returned if in use (Microsoft.Data.Sqlite marks every pooled connection DoNotPool).
                SqliteConnection.ClearAllPools();
            }
            return outage;
        }

        public void End()
        {
            if (_postgresDatabase is { } database)
            {
                Admin($"ALTER DATABASE {database} ALLOW_CONNECTIONS true;");
                return;
            }
            SqliteConnection.ClearAllPools();
            Directory.Delete(_sqliteFile!, recursive: true);
            foreach (var file in Directory.GetFiles(Aside))
                File.Move(file, Path.Combine(Path.GetDirectoryName(_sqliteFile)!, Path.GetFileName(file)));
        }

        string Aside => _sqliteFile + ".aside";

        IEnumerable<string> SqliteFiles => [_sqliteFile!, _sqliteFile + "-wal", _sqliteFile + "-shm"];

        static void Admin(string sql)
        {
            using var admin = new NpgsqlConnection(Environment.GetEnvironmentVariable(TestDatabase.ServerVariable));
            admin.Open();
            using var command = new NpgsqlCommand(sql, admin);
            command.ExecuteNonQuery();
        }
    }
}
