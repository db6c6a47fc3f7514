using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dapper;
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
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// The store's own faults, on a real server and a real SQLite file: full (its <c>Store:MaxSizeMegabytes</c> reached,
/// as a full disk answers) and damaged (its pages overwritten). The API answers 507 or 503 problem details naming
/// neither the file nor the engine, <c>/readyz</c> is 503, the embedded collector keeps its poll, and once the store
/// takes writes again the poll and the refused delivery are stored and <c>/readyz</c> is 200.
/// A PostgreSQL store's faults are told apart by their SQLSTATE alone (<see cref="StoreFaults.Of"/>), and neither a
/// full disk nor a damaged cluster can be made here without root: these run on SQLite only.
/// </summary>
[Trait(TestDatabase.SqliteOnlyTrait, TestDatabase.SqliteOnlyValue)]
public sealed class FaultyStoreTests : IAsyncLifetime
{
    const string Collector = "busy-collector";
    readonly CapturedLogs _logs = new();
    readonly DashboardHost _fleet = new(new ScenarioInstance { Name = "faulty-1", Profile = "2019", IfiEnabled = true });
    WebApplicationFactory<Program> _host = null!;
    HttpClient _api = null!;
    long _instanceId;

    public async Task InitializeAsync()
    {
        _fleet.Settings["Store:MaxSizeMegabytes"] = "0";
        _host = _fleet.WithWebHostBuilder(builder => builder.ConfigureLogging(logging => logging.AddProvider(_logs)));
        await _fleet.RegisterFleetAsync();
        _api = _host.CreateClient();
        _api.DefaultRequestHeaders.Add(IngestionOptions.ApiKeyHeader, DashboardHost.KeyOf(Collector));
        var leased = await _api.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(Collector, 1, 300));
        _instanceId = Assert.Single((await leased.Content.ReadFromJsonAsync<List<InstanceRegistration>>())!).Id;
    }

    public async Task DisposeAsync()
    {
        await _host.DisposeAsync();
        await _fleet.DisposeAsync();
        _logs.Dispose();
    }

    const string KeptLine = "the poll of instance";

    [Fact]
    public async Task A_full_store_answers_507_and_readyz_503_keeps_the_embedded_poll_and_stores_everything_once_it_has_room()
    {
        SetMaxSizeMegabytes(1); // at most what the file holds already, once past 1 MB: the next page it needs is refused
        HttpResponseMessage? refused = null;
        InstanceSnapshot? refusedSnapshot = null;
        for (var i = 0; i < 2000 && refused is null; i++)
        {
            var snapshot = Snapshot(_instanceId);
            var response = await _api.PostAsJsonAsync("/api/v1/collector/snapshots", snapshot);
            if (response.StatusCode != HttpStatusCode.NoContent)
                (refused, refusedSnapshot) = (response, snapshot);
        }
        Assert.NotNull(refused);
        var problem = await refused.Content.ReadAsStringAsync();
        var ready = await _host.CreateClient().GetAsync("/readyz");
        var readyProblem = await ready.Content.ReadFromJsonAsync<JsonElement>();
        var kept = _host.Services.GetRequiredService<ISnapshotSink>().WriteAsync(Snapshot(_instanceId), CancellationToken.None);
        var logged = await Eventually.WaitAsync(() => _logs.All, all => all.Contains("The store is full: " + KeptLine, StringComparison.Ordinal), seconds: 60);
        Assert.False(kept.IsCompleted);

        SetMaxSizeMegabytes(0);
        await kept.WaitAsync(TimeSpan.FromSeconds(60));
        var redelivered = await _api.PostAsJsonAsync("/api/v1/collector/snapshots", refusedSnapshot);
        var readyAgain = await _host.CreateClient().GetAsync("/readyz");

        Assert.Equal((HttpStatusCode)507, refused.StatusCode);
        Assert.Equal("application/problem+json", refused.Content.Headers.ContentType?.MediaType);
        Assert.Contains("The store is full", problem, StringComparison.Ordinal);
        Assert.DoesNotContain("SQLite", problem, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain(".db", problem, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
        Assert.StartsWith("The store is full.", readyProblem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Contains(KeptLine, logged, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NoContent, redelivered.StatusCode);
        Assert.Equal(HttpStatusCode.OK, readyAgain.StatusCode);
        Assert.Equal(1, await CountAsync($"SELECT COUNT(*) FROM polls WHERE snapshot_id = '{refusedSnapshot!.SnapshotId:D}';"));
    }

    [Fact]
    public async Task A_damaged_store_answers_503_and_readyz_503_and_the_embedded_poll_is_stored_once_it_is_restored()
    {
        var path = new SqliteConnectionStringBuilder(_fleet.Store.ConnectionString).DataSource;
        await using (var connection = new SqliteConnection(_fleet.Store.ConnectionString))
        {
            await connection.OpenAsync();
            await connection.ExecuteAsync("PRAGMA wal_checkpoint(TRUNCATE);");
        }
        SqliteConnection.ClearAllPools();
        var intact = await File.ReadAllBytesAsync(path);
        // Every page but the first (the header and the schema's root) overwritten, as a failing disk might leave them.
        const int pageSize = 4096;
        var damaged = intact.ToArray();
        Array.Fill(damaged, (byte)0xA5, pageSize, damaged.Length - pageSize);
        await File.WriteAllBytesAsync(path, damaged);

        var refused = await _api.PostAsJsonAsync("/api/v1/collector/snapshots", Snapshot(_instanceId));
        var problem = await refused.Content.ReadAsStringAsync();
        var ready = await _host.CreateClient().GetAsync("/readyz");
        var readyProblem = await ready.Content.ReadFromJsonAsync<JsonElement>();
        var snapshot = Snapshot(_instanceId);
        var kept = _host.Services.GetRequiredService<ISnapshotSink>().WriteAsync(snapshot, CancellationToken.None);
        var logged = await Eventually.WaitAsync(() => _logs.All, all => all.Contains("The store is damaged or its disk fails: " + KeptLine, StringComparison.Ordinal), seconds: 60);
        Assert.False(kept.IsCompleted);

        await File.WriteAllBytesAsync(path, intact); // restored from a backup
        SqliteConnection.ClearAllPools();
        await kept.WaitAsync(TimeSpan.FromSeconds(60));
        var readyAgain = await _host.CreateClient().GetAsync("/readyz");

        Assert.Equal(HttpStatusCode.ServiceUnavailable, refused.StatusCode);
        Assert.Equal("application/problem+json", refused.Content.Headers.ContentType?.MediaType);
        Assert.Contains("The store is unavailable", problem, StringComparison.Ordinal);
        Assert.DoesNotContain(path, problem, StringComparison.Ordinal);
        Assert.DoesNotContain("SQLite", problem, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
        Assert.StartsWith("The store is damaged", readyProblem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Contains(KeptLine, logged, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, readyAgain.StatusCode);
        Assert.Equal(1, await CountAsync($"SELECT COUNT(*) FROM polls WHERE snapshot_id = '{snapshot.SnapshotId:D}';"));
    }

    /// <summary>As an administrator changes the setting in configuration: it counts from the next write, without a restart.</summary>
    void SetMaxSizeMegabytes(int megabytes)
    {
        var configuration = (IConfigurationRoot)_host.Services.GetRequiredService<IConfiguration>();
        configuration["Store:MaxSizeMegabytes"] = megabytes.ToString(System.Globalization.CultureInfo.InvariantCulture);
        configuration.Reload();
    }

    async Task<int> CountAsync(string sql)
    {
        await using var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await connection.ExecuteScalarAsync<int>(sql);
    }

    // A poll as the collector named Collector would post it, with enough services that the store grows quickly.
    static InstanceSnapshot Snapshot(long instanceId) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = DateTimeOffset.UtcNow.AddSeconds(-1),
        FinishedAt = DateTimeOffset.UtcNow,
        CollectorName = Collector,
        Identity = new InstanceIdentity { ProductVersion = "15.0.4385.2", Edition = "Developer Edition (64-bit)", EngineEdition = 3, ServerName = "FAULTY", ProcessId = 7 },
        Services = [new ServiceInfo { ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = @"NT Service\MSSQLSERVER", ProcessId = 7, InstantFileInitializationEnabled = "Y", IsEngine = true },
            .. Enumerable.Range(0, 200).Select(i => new ServiceInfo { ServiceName = $"Filler service {i:D4} {new string('x', 80)}", ServiceAccount = @"NT Service\Filler" })],
        Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Identity, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)],
    };
}
