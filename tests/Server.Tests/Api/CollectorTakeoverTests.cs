using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using Dapper;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Security;
using IfiDashboard.Shared.Snapshots;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// One stolen collector key against the collector API with the default limits (issue 27): it cannot lease instances
/// another collector holds, leases are bounded, a future-dated snapshot is refused, a forged one is superseded by the
/// next real poll, and a takeover is recorded and mailed. The server's clock is a test clock the tests move.
/// </summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class CollectorTakeoverTests : IAsyncLifetime
{
    const string Collector = "dc1_collector";
    const string Rogue = "rogue_collector";
    const string CollectorKey = "dc1-collector-key-0123456789";
    const string RogueKey = "rogue-collector-key-0123456789";
    const string Administrators = "ifi-admins@bank.test";
    const int Instances = 4;
    const int AlertThreshold = 3;

    static readonly TimeSpan TakeoverDelay = new IngestionOptions().TakeoverDelay;

    readonly FakeTimeProvider _clock = new(DateTimeOffset.UtcNow);
    readonly ApiHost _host;
    HttpClient _collector = null!;
    HttpClient _rogue = null!;

    public CollectorTakeoverTests() => _host = new ApiHost(b => b
        .UseSetting($"Ingestion:ApiKeys:{Collector}", CollectorKey)
        .UseSetting($"Ingestion:ApiKeys:{Rogue}", RogueKey)
        .UseSetting("Ingestion:TakeoverAlertThreshold", AlertThreshold.ToString(CultureInfo.InvariantCulture))
        .UseSetting("Alerts:DefaultTo:0", Administrators)
        .ConfigureTestServices(services => services.AddSingleton<TimeProvider>(_clock)));

    public async Task InitializeAsync()
    {
        var cmdb = await _host.CmdbClientAsync();
        foreach (var i in Enumerable.Range(1, Instances))
            (await cmdb.PutAsJsonAsync($"/api/v1/instances/CI00{i}", ApiTestData.PutBody($"SQL0{i}"))).EnsureSuccessStatusCode();
        _collector = _host.Client(CollectorKey);
        _rogue = _host.Client(RogueKey);
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    async Task<List<InstanceRegistration>> LeaseAsync(HttpClient client, string collector, int count = 1000, int seconds = 60)
    {
        var response = await client.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(collector, count, seconds));
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadFromJsonAsync<List<InstanceRegistration>>())!;
    }

    async Task CompleteAsync(HttpClient client, string collector, long instanceId, DateTimeOffset nextPollAt) =>
        (await client.PostAsJsonAsync($"/api/v1/collector/leases/{instanceId}/complete",
            new CompleteLeaseRequest(collector, nextPollAt))).EnsureSuccessStatusCode();

    Task<HttpResponseMessage> DeliverAsync(HttpClient client, InstanceSnapshot snapshot) =>
        client.PostAsJsonAsync("/api/v1/collector/snapshots", snapshot);

    static InstanceSnapshot Snapshot(long instanceId, string collector, DateTimeOffset startedAt, DateTimeOffset finishedAt, string ifi) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = startedAt,
        FinishedAt = finishedAt,
        CollectorName = collector,
        Services = [new ServiceInfo { ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = @"NT Service\MSSQLSERVER", InstantFileInitializationEnabled = ifi, IsEngine = true }],
        Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)],
    };

    async Task<T?> ScalarAsync<T>(string sql, object? parameters = null)
    {
        await using var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await connection.ExecuteScalarAsync<T>(sql, parameters);
    }

    [Fact]
    public async Task A_rogue_key_leasing_in_a_loop_gets_none_of_the_instances_a_live_collector_polls()
    {
        var held = await LeaseAsync(_collector, Collector);
        Assert.Equal(Instances, held.Count);
        var rogueGot = new List<long>();

        // Ten rounds of 30 s: past the lease, past the takeover delay. The real collector polls every instance each
        // round and makes it due at once; the rogue asks for everything, for an hour, just after.
        for (var round = 0; round < 10; round++)
        {
            foreach (var instance in held)
                await CompleteAsync(_collector, Collector, instance.Id, _clock.GetUtcNow());
            rogueGot.AddRange((await LeaseAsync(_rogue, Rogue, 1000, 3600)).Select(i => i.Id));
            _clock.Advance(TimeSpan.FromSeconds(30));
            held = await LeaseAsync(_collector, Collector);
        }

        Assert.Empty(rogueGot);
        Assert.Equal(Instances, held.Count);
        Assert.Equal(0, await ScalarAsync<long>("SELECT COUNT(*) FROM collector_takeovers;"));
    }

    [Fact]
    public async Task A_lease_is_granted_for_at_most_Ingestion_MaxLeaseSeconds_whatever_is_asked()
    {
        var leasedAt = _clock.GetUtcNow();

        var leased = await LeaseAsync(_collector, Collector, 1, 3600);

        var expires = await ScalarAsync<string>("SELECT lease_expires_at FROM instances WHERE id = @id;", new { id = leased.Single().Id });
        Assert.Equal(StoreTime.ToText(leasedAt.AddSeconds(new IngestionOptions().MaxLeaseSeconds)), expires);
    }

    [Fact]
    public async Task A_snapshot_dated_295_seconds_ahead_is_refused_with_the_default_clock_skew()
    {
        var leased = (await LeaseAsync(_collector, Collector, 1)).Single();
        var now = _clock.GetUtcNow();

        var ahead = await DeliverAsync(_collector, Snapshot(leased.Id, Collector, now, now.AddSeconds(295), "Y"));

        await ProblemAssert.IsProblemAsync(ahead, 400, "finishedAt");
        Assert.Equal(0, await ScalarAsync<long>("SELECT COUNT(*) FROM polls;"));
    }

    [Fact]
    public async Task A_forged_snapshot_inside_the_lease_and_the_skew_is_superseded_by_the_next_real_poll()
    {
        var leased = (await LeaseAsync(_collector, Collector, 1)).Single();
        var leasedAt = _clock.GetUtcNow();

        // The stolen key of the very collector that holds the lease: IFI "on", dated as far ahead as the skew lets it.
        var forged = await DeliverAsync(_collector, Snapshot(leased.Id, Collector, leasedAt, leasedAt.AddSeconds(29), "Y"));
        var afterForged = await ScalarAsync<string>("SELECT ifi_state FROM instance_state WHERE instance_id = @id;", new { id = leased.Id });
        _clock.Advance(TimeSpan.FromSeconds(10));
        var real = await DeliverAsync(_collector, Snapshot(leased.Id, Collector, leasedAt.AddSeconds(1), _clock.GetUtcNow(), "N"));

        Assert.Equal(HttpStatusCode.NoContent, forged.StatusCode);
        Assert.Equal(nameof(IfiState.Enabled), afterForged);
        Assert.Equal(HttpStatusCode.NoContent, real.StatusCode);
        Assert.Equal(nameof(IfiState.Disabled),
            await ScalarAsync<string>("SELECT ifi_state FROM instance_state WHERE instance_id = @id;", new { id = leased.Id }));
    }

    [Fact]
    public async Task A_forged_flip_of_IFI_with_no_restart_is_marked_as_doubtful_in_the_changes_feed()
    {
        var leased = (await LeaseAsync(_collector, Collector, 1)).Single();
        var leasedAt = _clock.GetUtcNow();
        Assert.Equal(HttpStatusCode.NoContent, (await DeliverAsync(_collector, Snapshot(leased.Id, Collector, leasedAt, leasedAt, "N"))).StatusCode);
        _clock.Advance(TimeSpan.FromSeconds(10));

        var forged = await DeliverAsync(_collector, Snapshot(leased.Id, Collector, leasedAt.AddSeconds(5), _clock.GetUtcNow(), "Y"));
        var feed = await _host.Client(await _host.CreateKeyAsync("read")).GetFromJsonAsync<ChangePage>("/api/v1/changes?limit=1000");

        Assert.Equal(HttpStatusCode.NoContent, forged.StatusCode);
        var flip = Assert.Single(feed!.Items, e => e.Kind == "timeline");
        Assert.Equal(("ifiEnabled", "IFI changed with no restart of the engine service since the poll before"), (flip.Change, flip.Doubt));
    }

    [Fact]
    public async Task Instances_of_a_silent_collector_are_taken_over_recorded_and_mailed_and_its_old_polls_refused()
    {
        var rogueHeld = await LeaseAsync(_rogue, Rogue);
        Assert.Equal(Instances, rogueHeld.Count);
        Assert.Empty(await LeaseAsync(_collector, Collector));

        // The rogue falls silent; the collector is heard from throughout.
        _clock.Advance(TakeoverDelay / 2);
        Assert.Empty(await LeaseAsync(_collector, Collector));
        _clock.Advance(TakeoverDelay / 2 + TimeSpan.FromSeconds(1));
        var takenAt = _clock.GetUtcNow();
        var taken = await LeaseAsync(_collector, Collector);
        var id = taken.First().Id;
        var beforeTheLease = await DeliverAsync(_collector, Snapshot(id, Collector, takenAt.AddMinutes(-1), takenAt, "N"));
        var rogueAfter = await DeliverAsync(_rogue, Snapshot(id, Rogue, takenAt, takenAt, "Y"));
        var inLease = await DeliverAsync(_collector, Snapshot(id, Collector, takenAt, takenAt, "N"));

        Assert.Equal(Instances, taken.Count);
        await ProblemAssert.IsProblemAsync(beforeTheLease, 409, null);
        await ProblemAssert.IsProblemAsync(rogueAfter, 409, null);
        Assert.Equal(HttpStatusCode.NoContent, inLease.StatusCode);
        var audit = await _host.Services.GetRequiredService<AuditLog>().QueryAsync(
            new AuditFilter(Action: AuditActions.CollectorTookOver), null, AuditLog.MaxPageSize, CancellationToken.None);
        var entry = Assert.Single(audit);
        Assert.Equal(($"collector {Collector}", $"collector {Collector}"), (entry.Actor, entry.Target));
        Assert.All(taken, i => Assert.Contains($"\"name\":\"{i.Name}\"", entry.After, StringComparison.Ordinal));
        Assert.Contains($"\"from\":\"{Rogue}\"", entry.After, StringComparison.Ordinal);
        var mail = Assert.Single(await _host.Services.GetRequiredService<OutboxStore>().RecentAsync(50, CancellationToken.None),
            m => m.Kind == AlertNoticeKind.CollectorTakeover);
        Assert.Equal([Administrators], mail.Recipients);
        Assert.Contains($"Collector {Collector} took over {Instances} instances", mail.Subject, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Collectors_are_listed_with_their_last_contact_and_counts_and_a_silent_one_is_mailed_once()
    {
        var response = await _collector.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(Collector, 1000, 60, "2.1.0", 3));
        var held = (await response.Content.ReadFromJsonAsync<List<InstanceRegistration>>())!;
        Assert.Empty(await LeaseAsync(_rogue, Rogue));
        var now = _clock.GetUtcNow();
        Assert.Equal(HttpStatusCode.NoContent, (await DeliverAsync(_collector, Snapshot(held[0].Id, Collector, now, now, "N"))).StatusCode);
        var admin = _host.Client(ApiHost.BootstrapKey);
        var reader = _host.Client(await _host.CreateKeyAsync("read"));

        var listed = (await admin.GetFromJsonAsync<List<CollectorStatus>>("/api/v1/collectors"))!;
        var refused = await reader.GetAsync("/api/v1/collectors");
        // The rogue falls silent while the collector is heard from throughout.
        _clock.Advance(TakeoverDelay / 2);
        await LeaseAsync(_collector, Collector);
        _clock.Advance(TakeoverDelay / 2 + TimeSpan.FromSeconds(1));
        await LeaseAsync(_collector, Collector);
        await LeaseAsync(_collector, Collector);
        var later = (await admin.GetFromJsonAsync<List<CollectorStatus>>("/api/v1/collectors"))!;

        Assert.Equal([Collector, Rogue], listed.Select(c => c.Name));
        var collector = listed[0];
        Assert.Equal(("2.1.0", 3L, (long)Instances, 1L, false), (collector.Version, collector.OutboxDepth, collector.Assigned, collector.PolledLastDay, collector.Silent));
        Assert.Equal(now, collector.LastDeliveryAt);
        Assert.Equal((0L, 0L, false), (listed[1].Assigned, listed[1].PolledLastDay, listed[1].Silent));
        await ProblemAssert.IsProblemAsync(refused, 403, null);
        Assert.Equal([false, true], later.Select(c => c.Silent));
        var mail = Assert.Single(await _host.Services.GetRequiredService<OutboxStore>().RecentAsync(50, CancellationToken.None),
            m => m.Kind == AlertNoticeKind.CollectorSilent);
        Assert.Equal([Administrators], mail.Recipients);
        Assert.Contains($"Collector {Rogue} has fallen silent", mail.Subject, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_collectors_page_shows_each_collector_to_administrators_only()
    {
        await LeaseAsync(_collector, Collector);
        _clock.Advance(TakeoverDelay + TimeSpan.FromSeconds(1));
        await LeaseAsync(_rogue, Rogue);

        var page = await TestSignIn.AsRole(_host.CreateClient(), DashboardRoles.Administrator).GetStringAsync("/collectors");
        var refused = await TestSignIn.AsRole(_host.CreateClient(), DashboardRoles.Operator).GetAsync("/collectors");

        Assert.Contains("Silent since", Row(page, Collector), StringComparison.Ordinal);
        Assert.Contains("Heard from", Row(page, Rogue), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
    }

    static string Row(string page, string collector) =>
        System.Text.RegularExpressions.Regex.Match(page, $"<tr data-collector=\"{collector}\">(.*?)</tr>",
            System.Text.RegularExpressions.RegexOptions.Singleline).Groups[1].Value;
}
