using System.Net;
using System.Net.Http.Json;
using Dapper;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store;
using IfiDashboard.Server.Tests.Alerts;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// Another writer holds the store's write lock (a backup tool, a migration, a long transaction): the API answers 503
/// with Retry-After and changes nothing, a page says so in words, and a poll waits and is stored once it can be.
/// </summary>
[Trait(TestDatabase.PostgresPassTrait, TestDatabase.PostgresPassValue)]
public sealed class BusyStoreTests : IAsyncLifetime
{
    readonly CapturedLogs _logs = new();
    readonly DashboardHost _fleet = new(new ScenarioInstance { Name = "busy-1", Profile = "2019", IfiEnabled = true });
    WebApplicationFactory<Program> _host = null!;

    public async Task InitializeAsync()
    {
        _host = _fleet.WithWebHostBuilder(builder => builder.ConfigureLogging(logging => logging.AddProvider(_logs)));
        await _fleet.RegisterFleetAsync();
    }

    public async Task DisposeAsync()
    {
        await _host.DisposeAsync();
        await _fleet.DisposeAsync();
        _logs.Dispose();
    }

    Task<HeldWriteLock> HoldWriteLockAsync() => HeldWriteLock.TakeAsync(_fleet.Store);

    async Task<int> PollCountAsync()
    {
        await using var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await connection.ExecuteScalarAsync<int>("SELECT COUNT(*) FROM polls;");
    }

    const string RetryLine = "The store is busy: the poll of instance";

    // One lock hold for the three ways in (the collectors' API, a poll of the embedded collector, a form), sent at
    // once: each waits out the store's lock wait, so together they cost one wait instead of three.
    [Fact]
    public async Task While_another_writer_holds_the_store_the_api_answers_503_a_form_says_so_and_a_poll_waits_to_be_stored()
    {
        var api = _host.CreateClient();
        api.DefaultRequestHeaders.Add(IngestionOptions.ApiKeyHeader, DashboardHost.KeyOf("busy-collector"));
        var browser = _host.CreateClient();
        var source = _host.Services.GetRequiredService<IInstanceSource>();
        var registration = (await source.LeaseDueAsync("busy-collector", 1, TimeSpan.FromMinutes(5), CancellationToken.None)).Single();
        await source.CompleteAsync(registration.Id, "busy-collector", DateTimeOffset.UtcNow, CancellationToken.None);
        var snapshot = await _host.Services.GetRequiredService<InstanceProber>().PollAsync(registration, CancellationToken.None);
        var sink = _host.Services.GetRequiredService<ISnapshotSink>();

        Task write;
        HttpResponseMessage refused;
        EditingPagesTests.Submitted saved;
        await using (await HoldWriteLockAsync())
        {
            write = sink.WriteAsync(snapshot, CancellationToken.None);
            var lease = api.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("busy-collector", 5, 60));
            var form = EditingPagesTests.SubmitAsync(browser, "/inventory/new", "registration", new()
            {
                ["Form.Name"] = "registered-while-busy",
                ["Form.Host"] = "127.0.0.1",
                ["Form.Port"] = "1433",
                ["Form.CredentialName"] = "fleet",
            }, ("Form.Command", "save"));
            refused = await lease;
            saved = await form;
            var logged = await Eventually.WaitAsync(() => _logs.All, all => all.Contains(RetryLine, StringComparison.Ordinal), seconds: 60);
            Assert.Contains(RetryLine, logged, StringComparison.Ordinal);
            Assert.False(write.IsCompleted);
        }
        await write.WaitAsync(TimeSpan.FromSeconds(60));
        var body = await refused.Content.ReadAsStringAsync();
        var afterwards = await api.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest("busy-collector", 5, 60));
        var inventory = await browser.GetStringAsync("/inventory");

        Assert.Equal(HttpStatusCode.ServiceUnavailable, refused.StatusCode);
        Assert.Equal(StoreBusy.RetryAfter, refused.Headers.RetryAfter?.Delta);
        Assert.Equal("application/problem+json", refused.Content.Headers.ContentType?.MediaType);
        Assert.Contains("The store is busy", body, StringComparison.Ordinal);
        Assert.DoesNotContain("SQLite", body, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("55P03", body, StringComparison.Ordinal);
        // Nothing was leased while refused: the instance is still due, and the next request leases it.
        Assert.Single(Assert.IsType<List<InstanceRegistration>>(await afterwards.Content.ReadFromJsonAsync<List<InstanceRegistration>>()));
        Assert.Contains("The store is busy", saved.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("SQLite", saved.Message, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("registered-while-busy", inventory, StringComparison.Ordinal);
        Assert.Equal(1, await PollCountAsync());
    }
}
