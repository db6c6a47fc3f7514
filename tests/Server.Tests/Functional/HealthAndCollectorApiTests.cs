using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dapper;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// One server for the tests that store nothing; the round trip (a fleet of its own) and the broken store start their
/// own.
/// </summary>
public sealed class HealthAndCollectorApiTests(SharedDashboardHost shared) : IClassFixture<SharedDashboardHost>
{
    [Fact]
    public async Task Healthz_and_readyz_answer_when_the_store_is_migrated()
    {
        var host = shared.Host;
        var client = host.CreateClient();

        Assert.Equal("alive", await client.GetStringAsync("/healthz"));
        Assert.Equal("ready", await client.GetStringAsync("/readyz"));
    }

    [Fact]
    public async Task Readyz_answers_503_with_a_problem_naming_the_store_while_healthz_stays_alive()
    {
        await using var host = new DashboardHost();
        var client = host.CreateClient();
        await using (var connection = await host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
            await connection.ExecuteAsync("DROP TABLE schema_versions;");

        var ready = await client.GetAsync("/readyz");
        var problem = await ready.Content.ReadFromJsonAsync<JsonElement>();

        Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
        Assert.Equal("application/problem+json", ready.Content.Headers.ContentType?.MediaType);
        Assert.Matches(@"^The store has [1-9][0-9]* migration\(s\) pending; the server applies them when it starts\.$", problem.GetProperty("detail").GetString());
        Assert.Equal("alive", await client.GetStringAsync("/healthz"));
    }

    [Fact]
    public async Task Collector_api_refuses_a_missing_or_wrong_key_with_problem_details()
    {
        var host = shared.Host;
        var client = host.CreateClient();

        var missing = await client.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("c1", 5, 60));
        client.DefaultRequestHeaders.Add(IngestionOptions.ApiKeyHeader, "wrong");
        var wrong = await client.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("c1", 5, 60));

        Assert.Equal(HttpStatusCode.Unauthorized, missing.StatusCode);
        Assert.Equal("application/problem+json", missing.Content.Headers.ContentType?.MediaType);
        Assert.Equal(HttpStatusCode.Unauthorized, wrong.StatusCode);
    }

    [Fact]
    public async Task Standalone_collector_round_trip_leases_posts_once_and_completes()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "remote", Profile = "2019", IfiEnabled = true });
        await host.RegisterFleetAsync();
        var client = host.CreateClient();
        client.DefaultRequestHeaders.Add(IngestionOptions.ApiKeyHeader, DashboardHost.ApiKey);

        var other = host.CreateClient();
        other.DefaultRequestHeaders.Add(IngestionOptions.ApiKeyHeader, DashboardHost.KeyOf("other-collector"));

        var leased = await (await client.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("remote-collector", 10, 60)))
            .Content.ReadFromJsonAsync<List<InstanceRegistration>>();
        var again = await (await other.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("other-collector", 10, 60)))
            .Content.ReadFromJsonAsync<List<InstanceRegistration>>();
        var snapshot = Snapshot(Assert.Single(leased!).Id);
        var first = await client.PostAsJsonAsync("/api/v1/collector/snapshots", snapshot);
        var duplicate = await client.PostAsJsonAsync("/api/v1/collector/snapshots", snapshot);
        var complete = await client.PostAsJsonAsync($"/api/v1/collector/leases/{snapshot.InstanceId}/complete",
            new CompleteLeaseRequest("remote-collector", DateTimeOffset.UtcNow.AddMinutes(5)));
        var listed = await host.Services.GetRequiredService<FactsReader>().ActiveInstancesAsync(CancellationToken.None);

        Assert.Empty(again!);
        Assert.Equal(HttpStatusCode.NoContent, first.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, duplicate.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, complete.StatusCode);
        Assert.Equal(IfiState.Disabled, Assert.Single(listed).State.IfiState);
        var polls = await StoreDump.AllTextAsync(host.Services);
        Assert.Single(polls.Split('\n'), line => line.Contains(snapshot.SnapshotId.ToString(), StringComparison.Ordinal));
    }

    [Fact]
    public async Task Lease_request_with_bad_fields_names_them()
    {
        var host = shared.Host;
        var client = host.CreateClient();
        client.DefaultRequestHeaders.Add(IngestionOptions.ApiKeyHeader, DashboardHost.ApiKey);

        var response = await client.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("", 0, 5));
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("collectorName", body, StringComparison.Ordinal);
        Assert.Contains("maxCount", body, StringComparison.Ordinal);
        Assert.Contains("leaseSeconds", body, StringComparison.Ordinal);
    }

    // A snapshot as a remote collector would post it: this one says IFI is off.
    static InstanceSnapshot Snapshot(long instanceId) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = DateTimeOffset.UtcNow.AddSeconds(-1),
        FinishedAt = DateTimeOffset.UtcNow,
        CollectorName = "remote-collector",
        Identity = new InstanceIdentity { ProductVersion = "15.0.4385.2", Edition = "Developer Edition (64-bit)", EngineEdition = 3, ServerName = "REMOTE", ProcessId = 7 },
        Services = [new ServiceInfo { ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = @"NT Service\MSSQLSERVER", ProcessId = 7, InstantFileInitializationEnabled = "N", IsEngine = true }],
        Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Identity, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)],
    };
}
