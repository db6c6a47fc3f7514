using System.Net.Http.Json;
using Dapper;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Server.Tests.Deployment;

/// <summary>
/// The real standalone collector process against the real server listening on a real port: what an SRE sees in the
/// collector's log when its key is wrong, when a second collector is started on the same outbox, and when the server
/// is down at first and comes up later.
/// </summary>
public sealed class StandaloneCollectorProcessTests : IDisposable
{
    const string WrongKey = "not-a-key-the-server-knows-0123456789";
    readonly string _outbox = Directory.CreateTempSubdirectory("ifi-process-outbox-").FullName;

    public void Dispose()
    {
        try { Directory.Delete(_outbox, recursive: true); } catch (IOException) { }
    }

    static async Task<(DashboardHost Host, int Port)> ServerAsync()
    {
        var host = new DashboardHost(new ScenarioInstance { Name = "remote", Profile = "2019", IfiEnabled = true });
        var port = host.StartOnFreePort();
        await host.RegisterFleetAsync();
        return (host, port);
    }

    const string ProcessCollector = "process-collector";

    Dictionary<string, string> Settings(int port, string apiKey, string name = ProcessCollector) => new()
    {
        ["Collector__ServerUrl"] = $"http://127.0.0.1:{port}/",
        ["Collector__ApiKey"] = apiKey,
        ["Collector__Name"] = name,
        ["Collector__Outbox__Directory"] = _outbox,
        ["Credentials__fleet__UserId"] = DashboardHost.Login,
        ["Credentials__fleet__Password"] = DashboardHost.Password,
    };

    static void AssertNoStackTraceNorKey(CollectorProcess collector, string key)
    {
        Assert.DoesNotContain(collector.Lines, l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal));
        Assert.DoesNotContain(key, collector.Log, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Unknown_key_is_logged_as_one_line_naming_the_setting_to_fix()
    {
        var (host, port) = await ServerAsync();
        await using var _ = host;
        await using var collector = CollectorProcess.Start(Settings(port, WrongKey));

        var line = await collector.WaitForLineAsync(l => l.Contains("Leasing due instances failed", StringComparison.Ordinal));

        Assert.True(line is not null, collector.Log);
        Assert.Contains("rejected Collector:ApiKey (401)", line, StringComparison.Ordinal);
        Assert.Contains("Ingestion:ApiKeys", line, StringComparison.Ordinal);
        Assert.Contains($"'{ApiScopes.SnapshotIngest}'", line, StringComparison.Ordinal);
        AssertNoStackTraceNorKey(collector, WrongKey);
    }

    [Fact]
    public async Task Key_without_the_ingest_scope_is_logged_as_one_line_naming_the_scope()
    {
        var (host, port) = await ServerAsync();
        await using var _ = host;
        var (_, readOnlyKey) = await host.Services.GetRequiredService<ApiKeyIssuer>()
            .CreateAsync("reporting", [ApiScopes.Read], null, CancellationToken.None);
        await using var collector = CollectorProcess.Start(Settings(port, readOnlyKey));

        var line = await collector.WaitForLineAsync(l => l.Contains("Leasing due instances failed", StringComparison.Ordinal));

        Assert.True(line is not null, collector.Log);
        Assert.Contains($"lacks the scope '{ApiScopes.SnapshotIngest}'", line, StringComparison.Ordinal);
        Assert.Contains("(403)", line, StringComparison.Ordinal);
        AssertNoStackTraceNorKey(collector, readOnlyKey);
    }

    [Fact]
    public async Task Missing_settings_end_the_start_with_one_line_naming_them()
    {
        var settings = Settings(LoopbackPorts.Unassigned(), DashboardHost.ApiKey);
        settings.Remove("Collector__ServerUrl");
        await using var collector = CollectorProcess.Start(settings);

        var exitCode = await collector.WaitForExitAsync();

        Assert.True(exitCode == 1, collector.Log);
        var refusal = Assert.Single(collector.Lines, l => l.StartsWith("IfiDashboard collector cannot start: ", StringComparison.Ordinal));
        Assert.Contains("Collector:ServerUrl", refusal, StringComparison.Ordinal);
        AssertNoStackTraceNorKey(collector, DashboardHost.ApiKey);
    }

    [Fact]
    public async Task Second_collector_on_the_same_outbox_refuses_to_start()
    {
        var (host, port) = await ServerAsync();
        await using var _ = host;
        await using var first = CollectorProcess.Start(Settings(port, DashboardHost.KeyOf("first"), "first"));
        Assert.True(await first.WaitForLineAsync(l => l.Contains($"Outbox {_outbox}", StringComparison.Ordinal)) is not null, first.Log);

        await using var second = CollectorProcess.Start(Settings(port, DashboardHost.KeyOf("second"), "second"));
        var exitCode = await second.WaitForExitAsync();

        Assert.True(exitCode == 1, second.Log);
        var refusal = Assert.Single(second.Lines, l => l.StartsWith("IfiDashboard collector cannot start: ", StringComparison.Ordinal));
        Assert.Contains($"Another running collector holds the outbox {_outbox}", refusal, StringComparison.Ordinal);
        AssertNoStackTraceNorKey(second, DashboardHost.ApiKey);
        Assert.Null(await first.WaitForExitAsync(seconds: 0));
    }

    [Fact]
    public async Task Collector_started_before_the_server_backs_off_and_polls_once_the_server_is_up()
    {
        var port = LoopbackPorts.Unassigned();
        await using var host = new DashboardHost(new ScenarioInstance { Name = "remote", Profile = "2019", IfiEnabled = true });
        host.UseKestrel(port);
        var settings = Settings(port, DashboardHost.KeyOf(ProcessCollector));
        // Two poll slots and fast retries: more failed leases than slots, which once left the collector waiting for a
        // free slot for ever.
        settings["Collector__MaxConcurrency"] = "2";
        settings["Collector__IdleCheckSeconds"] = "0.05";
        await using var collector = CollectorProcess.Start(settings);
        await Eventually(() => collector.Lines.Count(l => l.Contains("Leasing due instances failed", StringComparison.Ordinal)) >= 3, collector);

        host.StartServer();
        await host.RegisterFleetAsync();

        var connections = host.Services.GetRequiredService<IDbConnectionFactory>();
        await Eventually(() => PollCount(connections) > 0, collector);
        var failures = collector.Lines.Where(l => l.Contains("Leasing due instances failed", StringComparison.Ordinal)).ToList();
        Assert.All(failures, l => Assert.Contains("Connection refused", l, StringComparison.Ordinal));
        AssertNoStackTraceNorKey(collector, DashboardHost.KeyOf(ProcessCollector));
    }

    [Fact]
    public async Task A_rogue_key_gets_none_of_the_instances_the_running_collector_polls()
    {
        var (host, port) = await ServerAsync();
        await using var _ = host;
        await using var collector = CollectorProcess.Start(Settings(port, DashboardHost.KeyOf(ProcessCollector)));
        var connections = host.Services.GetRequiredService<IDbConnectionFactory>();
        await Eventually(() => PollCount(connections) > 0 && LeaseOwner(connections) is null, collector);

        // The moment a forger waits for: the instance falls due, and the rogue asks for everything, for an hour.
        Execute(connections, "UPDATE instances SET next_poll_at = @due;", new { due = DateTimeOffset.UtcNow.AddMinutes(-1) });
        var rogue = host.CreateClient();
        rogue.DefaultRequestHeaders.Add(IngestionOptions.ApiKeyHeader, DashboardHost.KeyOf("other-collector"));
        var response = await rogue.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("other-collector", 1000, 3600));
        var leased = await response.Content.ReadFromJsonAsync<List<InstanceRegistration>>();

        Assert.Empty(leased!);
        // The running collector polls it on.
        await Eventually(() => PollCount(connections) > 1, collector);
        Assert.Equal(ProcessCollector, Scalar<string>(connections, "SELECT last_leased_by FROM instances;"));
    }

    [Fact]
    public async Task A_rogue_key_gets_an_instance_assigned_to_the_running_collector_neither_before_its_first_poll_nor_after()
    {
        var (host, port) = await ServerAsync();
        await using var _ = host;
        await host.Services.GetRequiredService<AssignmentStore>().SaveAsync(
            [new CollectorAssignment(AssignmentMatch.All, [], [ProcessCollector])], CancellationToken.None);
        var connections = host.Services.GetRequiredService<IDbConnectionFactory>();
        var rogue = host.CreateClient();
        rogue.DefaultRequestHeaders.Add(IngestionOptions.ApiKeyHeader, DashboardHost.KeyOf("other-collector"));
        async Task<List<InstanceRegistration>> RogueLeaseAsync() => (await (await rogue.PostAsJsonAsync("/api/v1/collector/leases",
            new LeaseRequest("other-collector", 1000, 3600))).Content.ReadFromJsonAsync<List<InstanceRegistration>>())!;

        // Never leased yet: without the rule, the first to ask would get it.
        var beforeFirstPoll = await RogueLeaseAsync();
        await using var collector = CollectorProcess.Start(Settings(port, DashboardHost.KeyOf(ProcessCollector)));
        await Eventually(() => PollCount(connections) > 0 && LeaseOwner(connections) is null, collector);
        Execute(connections, "UPDATE instances SET next_poll_at = @due;", new { due = DateTimeOffset.UtcNow.AddMinutes(-1) });
        var whileDue = await RogueLeaseAsync();

        Assert.Empty(beforeFirstPoll);
        Assert.Empty(whileDue);
        await Eventually(() => PollCount(connections) > 1, collector);
        Assert.Equal(0, Scalar<long>(connections, "SELECT COUNT(*) FROM polls WHERE collector_name <> 'process-collector';"));
    }

    static string? LeaseOwner(IDbConnectionFactory connections) => Scalar<string>(connections, "SELECT lease_owner FROM instances;");

    static T? Scalar<T>(IDbConnectionFactory connections, string sql)
    {
        using var connection = connections.OpenAsync(CancellationToken.None).AsTask().GetAwaiter().GetResult();
        return connection.ExecuteScalar<T>(sql);
    }

    static void Execute(IDbConnectionFactory connections, string sql, object parameters)
    {
        using var connection = connections.OpenAsync(CancellationToken.None).AsTask().GetAwaiter().GetResult();
        connection.Execute(sql, parameters);
    }

    static long PollCount(IDbConnectionFactory connections)
    {
        using var connection = connections.OpenAsync(CancellationToken.None).AsTask().GetAwaiter().GetResult();
        return connection.ExecuteScalar<long>("SELECT COUNT(*) FROM polls;");
    }

    static async Task Eventually(Func<bool> condition, CollectorProcess collector, int seconds = 60)
    {
        var met = await IfiDashboard.Tests.Support.Eventually.WaitAsync(condition, done => done, seconds);
        Assert.True(met, collector.Log);
    }
}
