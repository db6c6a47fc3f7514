using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using Dapper;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.ApiKeys;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// The collector API binds each key to one collector (issue 13): forged, foreign and flooding requests are refused
/// with problem details, audited, and leave the store as it was.
/// </summary>
public sealed class CollectorBindingTests : IAsyncLifetime
{
    const string Collector = "dc1_collector";
    const string Other = "dc2_collector";
    const string CollectorKey = "dc1-collector-key-0123456789";
    const string OtherKey = "dc2-collector-key-0123456789";
    const int MaxLeases = 2;

    readonly FakeTimeProvider _clock = new(DateTimeOffset.UtcNow);
    readonly ApiHost _host;

    public CollectorBindingTests() => _host = new(b => b
        .UseSetting($"Ingestion:ApiKeys:{Collector}", CollectorKey)
        .UseSetting($"Ingestion:ApiKeys:{Other}", OtherKey)
        .UseSetting("Ingestion:MaxClockSkew", "00:01:00")
        .UseSetting("Ingestion:MaxLeasesPerCollector", MaxLeases.ToString(CultureInfo.InvariantCulture))
        .ConfigureTestServices(services => services.AddSingleton<TimeProvider>(_clock)));

    HttpClient _collector = null!;
    HttpClient _other = null!;

    public async Task InitializeAsync()
    {
        var cmdb = await _host.CmdbClientAsync();
        foreach (var i in Enumerable.Range(1, 4))
            (await cmdb.PutAsJsonAsync($"/api/v1/instances/CI00{i}", ApiTestData.PutBody($"SQL0{i}"))).EnsureSuccessStatusCode();
        _collector = _host.Client(CollectorKey);
        _other = _host.Client(OtherKey);
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    Task<string> StoreWithoutAuditAsync() => StoreDump.AllTextAsync(_host.Services, StoreDump.AuditLog);

    /// <summary>The collector API's refusals, as counted (one row per source and reason an hour).</summary>
    async Task<IReadOnlyList<RefusalCount>> RefusalsAsync() => (await _host.Services.GetRequiredService<AuditLog>()
        .RefusalCountsAsync(DateTimeOffset.MinValue, DateTimeOffset.MaxValue, CancellationToken.None))
        .Where(r => r.Action == AuditActions.CollectorRefused).ToList();

    async Task<long> RefusedAsync() => (await RefusalsAsync()).Sum(r => r.Refusals);

    async Task<List<InstanceRegistration>> LeaseAsync(HttpClient client, string collector, int count)
    {
        var response = await client.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(collector, count, 600));
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadFromJsonAsync<List<InstanceRegistration>>())!;
    }

    static InstanceSnapshot Snapshot(long instanceId, DateTimeOffset finishedAt, string collector = Collector) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = finishedAt.AddSeconds(-2),
        FinishedAt = finishedAt,
        CollectorName = collector,
        Services = [new ServiceInfo { ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = @"NT Service\MSSQLSERVER", InstantFileInitializationEnabled = "Y", IsEngine = true }],
        Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)],
    };

    [Fact]
    public async Task A_forged_future_dated_snapshot_of_a_leased_instance_is_refused_and_changes_nothing()
    {
        var leased = (await LeaseAsync(_collector, Collector, 1)).Single();
        var before = await StoreWithoutAuditAsync();

        var forged = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leased.Id, new DateTimeOffset(2099, 1, 1, 0, 0, 0, TimeSpan.Zero)));
        var aheadOfTheSkew = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leased.Id, DateTimeOffset.UtcNow.AddMinutes(3)));

        await ProblemAssert.IsProblemAsync(forged, 400, "finishedAt");
        await ProblemAssert.IsProblemAsync(aheadOfTheSkew, 400, "finishedAt");
        Assert.Equal(before, await StoreWithoutAuditAsync());
        var refusals = await RefusalsAsync();
        Assert.Equal(2, refusals.Sum(r => r.Refusals));
        Assert.All(refusals, r => Assert.Equal($"collector {Collector}", r.Actor));

        // Within the skew the same collector's snapshot is taken: the check refuses the future, not the collector.
        var inTime = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leased.Id, DateTimeOffset.UtcNow.AddSeconds(10)));
        Assert.Equal(HttpStatusCode.NoContent, inTime.StatusCode);
    }

    [Fact]
    public async Task A_snapshot_of_an_instance_leased_to_another_collector_or_to_none_is_refused_and_changes_nothing()
    {
        var leasedToOther = (await LeaseAsync(_other, Other, 1)).Single();
        var neverLeased = (await _host.Services.GetRequiredService<InventoryReader>().FindByExternalKeyAsync("CI004", CancellationToken.None))!;
        var before = await StoreWithoutAuditAsync();

        var foreign = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leasedToOther.Id, DateTimeOffset.UtcNow));
        var unleased = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(neverLeased.Registration.Id, DateTimeOffset.UtcNow));
        var impersonated = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leasedToOther.Id, DateTimeOffset.UtcNow, collector: Other));

        await ProblemAssert.IsProblemAsync(foreign, 409, null);
        await ProblemAssert.IsProblemAsync(unleased, 409, null);
        await ProblemAssert.IsProblemAsync(impersonated, 403, null);
        Assert.Equal(before, await StoreWithoutAuditAsync());
        Assert.Equal(3, await RefusedAsync());
        // The lease holder's own snapshot of it is taken, after it completed the lease (a standalone collector's outbox
        // delivers later).
        (await _other.PostAsJsonAsync($"/api/v1/collector/leases/{leasedToOther.Id}/complete",
            new CompleteLeaseRequest(Other, DateTimeOffset.UtcNow.AddMinutes(5)))).EnsureSuccessStatusCode();
        var own = await _other.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leasedToOther.Id, DateTimeOffset.UtcNow, collector: Other));
        Assert.Equal(HttpStatusCode.NoContent, own.StatusCode);
    }

    [Fact]
    public async Task A_snapshot_delivered_again_after_the_lease_passed_to_another_collector_is_taken_as_delivered()
    {
        var leased = (await LeaseAsync(_collector, Collector, 1)).Single();
        var snapshot = Snapshot(leased.Id, DateTimeOffset.UtcNow);
        (await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", snapshot)).EnsureSuccessStatusCode();
        (await _collector.PostAsJsonAsync($"/api/v1/collector/leases/{leased.Id}/complete",
            new CompleteLeaseRequest(Collector, DateTimeOffset.UtcNow.AddMinutes(-1)))).EnsureSuccessStatusCode();
        // The lease passes on only once its collector has been silent for the takeover delay while the other was heard from.
        var delay = new IngestionOptions().TakeoverDelay;
        await LeaseAsync(_other, Other, 1);
        _clock.Advance(delay / 2);
        await LeaseAsync(_other, Other, 1);
        _clock.Advance(delay / 2 + TimeSpan.FromSeconds(1));
        Assert.Contains(await _host.Services.GetRequiredService<StoreInstanceSource>()
            .LeaseDueAsync(Other, 10, TimeSpan.FromMinutes(10), CancellationToken.None), i => i.Id == leased.Id);
        // A delivery, even one stored before, notes that the collector was heard from (table collectors) and, its silence
        // having been mailed, mails once that it is back (alert_outbox): nothing else changes.
        var before = await StoreDump.AllTextAsync(_host.Services, StoreDump.AuditLog, "collectors", "alert_outbox");

        var again = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", snapshot);
        // A poll started after the takeover (a poll started before it, while the collector held the instance, is stored).
        var newOne = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leased.Id, _clock.GetUtcNow().AddSeconds(3)));

        Assert.Equal(HttpStatusCode.NoContent, again.StatusCode);
        await ProblemAssert.IsProblemAsync(newOne, 409, null);
        Assert.Equal(before, await StoreDump.AllTextAsync(_host.Services, StoreDump.AuditLog, "collectors", "alert_outbox"));
        Assert.Single(await _host.Services.GetRequiredService<OutboxStore>().RecentAsync(50, CancellationToken.None),
            m => m.Kind == AlertNoticeKind.CollectorBack);
    }

    [Fact]
    public async Task A_lease_flood_gets_at_most_the_collector_limit_and_then_is_refused_and_changes_nothing()
    {
        var first = await LeaseAsync(_collector, Collector, 4);
        var before = await StoreWithoutAuditAsync();

        var more = await _collector.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(Collector, 4, 600));
        var underAnotherName = await _collector.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("made-up-collector", 4, 3600));
        var huge = await _collector.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(Collector, 1_000_000, 600));

        Assert.Equal(MaxLeases, first.Count);
        await ProblemAssert.IsProblemAsync(more, 429, null);
        await ProblemAssert.IsProblemAsync(underAnotherName, 403, null);
        await ProblemAssert.IsProblemAsync(huge, 400, "maxCount");
        Assert.Equal(before, await StoreWithoutAuditAsync());
        Assert.Equal(3, await RefusedAsync());
        // The other collector still finds the instances the first could not take.
        Assert.Equal(2, (await LeaseAsync(_other, Other, 4)).Count);
    }

    [Fact]
    public async Task Completing_a_lease_schedules_the_next_poll_no_further_than_two_intervals_ahead()
    {
        var leased = (await LeaseAsync(_collector, Collector, 1)).Single();

        var complete = await _collector.PostAsJsonAsync($"/api/v1/collector/leases/{leased.Id}/complete",
            new CompleteLeaseRequest(Collector, new DateTimeOffset(2099, 1, 1, 0, 0, 0, TimeSpan.Zero)));
        var completedAt = DateTimeOffset.UtcNow;

        Assert.Equal(HttpStatusCode.NoContent, complete.StatusCode);
        await using var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        var nextPollAt = DateTimeOffset.Parse(await connection.ExecuteScalarAsync<string>(
            "SELECT next_poll_at FROM instances WHERE id = @id;", new { id = leased.Id }) ?? "", CultureInfo.InvariantCulture);
        Assert.True(nextPollAt <= completedAt + TimeSpan.FromSeconds(leased.PollIntervalSeconds * StoreInstanceSource.MaxIntervalsAhead),
            $"next poll at {nextPollAt:O}");
        Assert.True(nextPollAt > completedAt, $"next poll at {nextPollAt:O}");
    }

    [Fact]
    public async Task A_stored_ingest_key_issued_without_a_collector_is_refused()
    {
        // As a key issued before keys were bound to collectors would be.
        const string legacyKey = "ifi_legacy22_0123456789abcdefghijklmnopqrstuvwxyzABCD";
        await _host.Services.GetRequiredService<ApiKeyStore>().TryAddAsync("legacy22",
            IfiDashboard.Server.Security.ApiKeyMaterial.Hash(legacyKey), "old collector", ["snapshot:ingest"], null, CancellationToken.None);

        var response = await _host.Client(legacyKey).PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(Collector, 1, 60));

        await ProblemAssert.IsProblemAsync(response, 403, null);
        Assert.Contains("--collector", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_ingest_key_is_issued_for_one_collector_and_acts_for_it_only()
    {
        var admin = _host.Client(ApiHost.BootstrapKey);

        var unbound = await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "dc3", scopes = new[] { "snapshot:ingest" } });
        var readerWithCollector = await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "r", scopes = new[] { "read" }, collector = "dc3" });
        var bound = await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "dc3", scopes = new[] { "snapshot:ingest" }, collector = "dc3" });
        var key = (await bound.Content.ReadFromJsonAsync<IfiDashboard.Server.Api.Keys.CreatedApiKeyResponse>())!;
        var asOwn = await _host.Client(key.Key).PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("dc3", 1, 60));
        var asOther = await _host.Client(key.Key).PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(Collector, 1, 60));

        await ProblemAssert.IsProblemAsync(unbound, 400, "collector");
        await ProblemAssert.IsProblemAsync(readerWithCollector, 400, "collector");
        Assert.Equal(HttpStatusCode.Created, bound.StatusCode);
        Assert.Equal("dc3", key.Collector);
        Assert.Equal(HttpStatusCode.OK, asOwn.StatusCode);
        await ProblemAssert.IsProblemAsync(asOther, 403, null);
    }
}
