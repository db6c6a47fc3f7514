using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Audit;
using IfiDashboard.Store;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Inventory;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Server.Security;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>
/// A flood of refused requests, which anyone who reaches the server (or holds a collector's key) can send, adds no
/// audit entry and a bounded number of refusal counts: until session 12, 500 forged sign-in callbacks were 500
/// entries, and a collector key's 1,000 refused lease requests 1,000.
/// </summary>
public sealed class RefusalFloodTests
{
    const int Flood = 1000;

    /// <summary>The bound docs/security.md states: per hour, 100 sources and reasons plus one row per kind of refusal.</summary>
    static readonly int RowsPerHourBound = AuditLog.MaxRefusalSourcesPerWindow + AuditActions.Refusals.Count;

    [Fact]
    public async Task A_thousand_refused_sign_ins_add_no_audit_entry_and_a_bounded_number_of_counted_rows()
    {
        await using var host = new DashboardHost { UseTestSignIn = false };
        // Never reached: a callback with a forged state is refused before the provider is asked anything.
        host.Settings["Auth:Oidc:Authority"] = "http://127.0.0.1:9/";
        host.Settings["Auth:Oidc:ClientId"] = "ifi-dashboard";
        host.Settings["Auth:Oidc:RequireHttpsMetadata"] = "false";
        var client = host.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        var entriesBefore = await RowsAsync(host, "audit_log");

        for (var i = 0; i < Flood; i++)
        {
            using var response = await client.GetAsync($"/signin-oidc?state=forged{i}&error=x{i}");
            Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        }

        var counts = await CountsAsync(host, AuditActions.SignInFailed);
        Assert.Equal(entriesBefore, await RowsAsync(host, "audit_log"));
        Assert.Equal(Flood, counts.Sum(c => c.Refusals));
        Assert.All(counts.GroupBy(c => c.WindowStart), window => Assert.InRange(window.Count(), 1, RowsPerHourBound));
        // One source (the test client) and one reason: one row an hour (two if the flood crossed an hour).
        Assert.InRange(counts.Count, 1, 2);
        Assert.All(counts, c => Assert.Equal("state missing, forged or expired", c.Reason));
    }

    [Fact]
    public async Task A_thousand_refused_collector_requests_with_its_key_and_a_thousand_with_a_wrong_key_add_no_audit_entry_and_a_bounded_number_of_rows()
    {
        await using var host = new DashboardHost();
        var collector = host.CreateClient();
        collector.DefaultRequestHeaders.Add("X-Api-Key", DashboardHost.ApiKey);
        var stranger = host.CreateClient();
        stranger.DefaultRequestHeaders.Add("X-Api-Key", "not-a-key-of-this-server-0123456789");
        var entriesBefore = await RowsAsync(host, "audit_log");

        for (var i = 0; i < Flood; i++)
        {
            using var leaseForAnother = await collector.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest($"made-up-collector-{i}", 1, 600));
            using var wrongKey = await stranger.PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(DashboardHost.RemoteCollector, 1, 600));
            Assert.Equal((HttpStatusCode.Forbidden, HttpStatusCode.Unauthorized), (leaseForAnother.StatusCode, wrongKey.StatusCode));
        }

        var counts = await CountsAsync(host, AuditActions.CollectorRefused);
        var (_, auditKey) = await host.Services.GetRequiredService<ApiKeyIssuer>().CreateAsync("siem", ["audit:read"], null, CancellationToken.None);
        var siem = host.CreateClient();
        siem.DefaultRequestHeaders.Add("X-Api-Key", auditKey);
        var throughTheApi = await siem.GetFromJsonAsync<RefusalCountsPage>("/api/v1/audit/refusals");
        Assert.Equal(entriesBefore + 1, await RowsAsync(host, "audit_log")); // the key issued just now
        Assert.Equal(2 * Flood, counts.Sum(c => c.Refusals));
        Assert.Equal(2 * Flood, throughTheApi!.Counts.Where(c => c.Action == AuditActions.CollectorRefused).Sum(c => c.Refusals));
        Assert.All(counts.GroupBy(c => c.WindowStart), window => Assert.InRange(window.Count(), 1, RowsPerHourBound));
        // Two sources and reasons (the collector's, the stranger's): two rows an hour.
        Assert.InRange(counts.Count, 2, 4);
        Assert.Contains(counts, c => c.Actor == $"collector {DashboardHost.RemoteCollector}" && c.Reason.StartsWith("lease for another collector name", StringComparison.Ordinal));
        Assert.Contains(counts, c => c.Actor == AuditActors.Anonymous && c.Reason == "key not valid");
    }

    static async Task<IReadOnlyList<RefusalCount>> CountsAsync(DashboardHost host, string action) =>
        (await host.Services.GetRequiredService<AuditLog>().RefusalCountsAsync(DateTimeOffset.MinValue, DateTimeOffset.MaxValue, CancellationToken.None))
        .Where(c => c.Action == action).ToList();

    static async Task<long> RowsAsync(DashboardHost host, string table)
    {
        await using var connection = await host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await Dapper.SqlMapper.ExecuteScalarAsync<long>(connection, $"SELECT COUNT(*) FROM {table};");
    }
}
