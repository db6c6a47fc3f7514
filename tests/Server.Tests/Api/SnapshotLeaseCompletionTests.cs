using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using Dapper;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// A snapshot that says when its instance is polled next completes its collector's lease in its own transaction
/// (<see cref="InstanceSnapshot.NextPollAt"/>): one request per poll instead of two. A snapshot without it, as older
/// collectors send, leaves the lease to <c>POST .../leases/{id}/complete</c>, which keeps working.
/// </summary>
public sealed class SnapshotLeaseCompletionTests : IAsyncLifetime
{
    const string Collector = "dc1_collector";
    const string Other = "dc2_collector";
    const string CollectorKey = "dc1-collector-key-0123456789";
    const string OtherKey = "dc2-collector-key-0123456789";

    readonly ApiHost _host = new(b => b
        .UseSetting($"Ingestion:ApiKeys:{Collector}", CollectorKey)
        .UseSetting($"Ingestion:ApiKeys:{Other}", OtherKey));

    HttpClient _collector = null!;
    HttpClient _other = null!;

    public async Task InitializeAsync()
    {
        var cmdb = await _host.CmdbClientAsync();
        foreach (var i in Enumerable.Range(1, 2))
            (await cmdb.PutAsJsonAsync($"/api/v1/instances/CI00{i}", ApiTestData.PutBody($"SQL0{i}"))).EnsureSuccessStatusCode();
        _collector = _host.Client(CollectorKey);
        _other = _host.Client(OtherKey);
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    async Task<InstanceRegistration> LeaseOneAsync(HttpClient client, string collector)
    {
        var response = await client.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(collector, 1, 600));
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadFromJsonAsync<List<InstanceRegistration>>())!.Single();
    }

    static InstanceSnapshot Snapshot(long instanceId, DateTimeOffset? nextPollAt, string collector = Collector) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = DateTimeOffset.UtcNow.AddSeconds(-2),
        FinishedAt = DateTimeOffset.UtcNow,
        CollectorName = collector,
        NextPollAt = nextPollAt,
        Services = [new ServiceInfo { ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = @"NT Service\MSSQLSERVER", InstantFileInitializationEnabled = "Y", IsEngine = true }],
        Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)],
    };

    sealed record LeaseRow(string? LeaseOwner, string? NextPollAt);

    async Task<LeaseRow> LeaseOfAsync(long instanceId)
    {
        await using var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await connection.QuerySingleAsync<LeaseRow>(
            "SELECT lease_owner AS LeaseOwner, next_poll_at AS NextPollAt FROM instances WHERE id = @instanceId;", new { instanceId });
    }

    static DateTimeOffset Parsed(string? storedTime) => DateTimeOffset.Parse(storedTime ?? "", CultureInfo.InvariantCulture);

    [Fact]
    public async Task A_snapshot_with_its_next_poll_time_completes_the_lease_as_the_completion_request_would()
    {
        var leased = await LeaseOneAsync(_collector, Collector);
        var nextPollAt = DateTimeOffset.UtcNow.AddSeconds(leased.PollIntervalSeconds);

        var delivered = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leased.Id, nextPollAt));

        Assert.Equal(HttpStatusCode.NoContent, delivered.StatusCode);
        var lease = await LeaseOfAsync(leased.Id);
        Assert.Null(lease.LeaseOwner);
        Assert.Equal(nextPollAt, Parsed(lease.NextPollAt));

        // As with the completion request, the next poll is at most two poll intervals ahead of the server's clock.
        var again = await LeaseOneAsync(_other, Other);
        Assert.NotEqual(leased.Id, again.Id);
        var farAhead = await _other.PostAsJsonAsync("/api/v1/collector/snapshots",
            Snapshot(again.Id, new DateTimeOffset(2099, 1, 1, 0, 0, 0, TimeSpan.Zero), collector: Other));
        var deliveredAt = DateTimeOffset.UtcNow;
        Assert.Equal(HttpStatusCode.NoContent, farAhead.StatusCode);
        var capped = await LeaseOfAsync(again.Id);
        Assert.Null(capped.LeaseOwner);
        Assert.True(Parsed(capped.NextPollAt) <= deliveredAt + TimeSpan.FromSeconds(again.PollIntervalSeconds * StoreInstanceSource.MaxIntervalsAhead),
            $"next poll at {capped.NextPollAt}");
    }

    [Fact]
    public async Task A_snapshot_without_a_next_poll_time_leaves_the_lease_to_the_completion_request()
    {
        var leased = await LeaseOneAsync(_collector, Collector);

        var delivered = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(leased.Id, nextPollAt: null));

        Assert.Equal(HttpStatusCode.NoContent, delivered.StatusCode);
        Assert.Equal(Collector, (await LeaseOfAsync(leased.Id)).LeaseOwner);
        var nextPollAt = DateTimeOffset.UtcNow.AddSeconds(leased.PollIntervalSeconds);
        var completed = await _collector.PostAsJsonAsync($"/api/v1/collector/leases/{leased.Id}/complete",
            new CompleteLeaseRequest(Collector, nextPollAt));
        Assert.Equal(HttpStatusCode.NoContent, completed.StatusCode);
        var lease = await LeaseOfAsync(leased.Id);
        Assert.Null(lease.LeaseOwner);
        Assert.Equal(nextPollAt, Parsed(lease.NextPollAt));
    }

    [Fact]
    public async Task A_refused_snapshot_completes_no_lease()
    {
        var leasedToOther = await LeaseOneAsync(_other, Other);
        var before = await LeaseOfAsync(leasedToOther.Id);

        var foreign = await _collector.PostAsJsonAsync("/api/v1/collector/snapshots",
            Snapshot(leasedToOther.Id, DateTimeOffset.UtcNow.AddMinutes(1)));

        await ProblemAssert.IsProblemAsync(foreign, 409, null);
        Assert.Equal(before, await LeaseOfAsync(leasedToOther.Id));
        Assert.Equal(Other, before.LeaseOwner);
    }
}
