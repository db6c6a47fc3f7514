using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Security.Claims;
using System.Text.Json;
using Dapper;
using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Server.Remediation;
using IfiDashboard.Store;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Collection;

/// <summary>
/// The real server with its embedded collector running in the background against a simulated fleet. Instances are
/// polled once a day and the collector looks for due instances once an hour when idle, so within the tests' safety
/// net only "verify now" (the instance made due, the collector woken) can poll an instance again.
/// </summary>
public sealed class VerifyNowFleet : IAsyncLifetime
{
    public static readonly string[] Names = ["fixed-by-pack", "fixed-a", "fixed-b"];

    public DashboardHost Host { get; } = new(Names.Select(name => new ScenarioInstance
    {
        Name = name, Profile = "2019", IfiEnabled = false, ServiceAccount = @"CORP\svc-sql", MachineName = name.ToUpperInvariant(),
    }).ToArray())
    {
        Settings = { ["Collector:Enabled"] = "true", ["Collector:IdleCheckSeconds"] = "3600" },
    };

    public async Task InitializeAsync()
    {
        await SimulatedFleetRegistration.RegisterAsync(Host.Services, Host.Fleet, pollIntervalSeconds: 86_400);
        // The background collector may have leased some of them already; this polls the rest.
        await Host.PollAllAsync();
        var ids = Names.Select(Host.IdOf).ToList();
        await AssessedAsync(Host, fleet => ids.All(id => fleet.Find(id) is { Compliance.Status: ComplianceStatus.NonCompliant }));
    }

    public async Task DisposeAsync() => await Host.DisposeAsync();

    /// <summary>The first assessment that meets <paramref name="reached"/>: waits on <see cref="FleetAssessments.Assessed"/>.</summary>
    public static async Task<FleetAssessment> AssessedAsync(DashboardHost host, Func<FleetAssessment, bool> reached)
    {
        var assessments = host.Services.GetRequiredService<FleetAssessments>();
        var done = new TaskCompletionSource<FleetAssessment>(TaskCreationOptions.RunContinuationsAsynchronously);
        async Task CheckAsync()
        {
            try
            {
                var fleet = await assessments.GetAsync(CancellationToken.None);
                if (reached(fleet)) done.TrySetResult(fleet);
            }
            catch (Exception e)
            {
                done.TrySetException(e);
            }
        }
        void OnAssessed() => _ = CheckAsync();
        assessments.Assessed += OnAssessed;
        try
        {
            await CheckAsync();
            // A safety net only: a poll lands in about a second.
            return await done.Task.WaitAsync(TimeSpan.FromSeconds(120));
        }
        finally
        {
            assessments.Assessed -= OnAssessed;
        }
    }

    public Task<IReadOnlyList<AuditRecord>> VerifyAuditAsync() => Host.Services.GetRequiredService<AuditLog>()
        .QueryAsync(new AuditFilter(Action: AuditActions.VerifyRequested), null, 100, CancellationToken.None);
}

public sealed class VerifyNowTests(VerifyNowFleet fleet) : IClassFixture<VerifyNowFleet>
{
    static DateTimeOffset RequestedAt(JsonElement accepted) =>
        DateTimeOffset.Parse(accepted.GetProperty("requestedAt").GetString()!, CultureInfo.InvariantCulture);

    [Fact]
    public async Task A_pack_applied_then_verify_now_turns_the_instance_compliant_and_confirms_the_pack_without_waiting_for_its_poll()
    {
        var host = fleet.Host;
        var id = host.IdOf("fixed-by-pack");
        var client = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Operator);
        using var pack = await client.PostAsJsonAsync("/api/v1/remediation", new { instance = id, format = "json" });
        var packId = long.Parse(pack.Headers.GetValues(RemediationEndpoints.PackIdHeader).Single(), CultureInfo.InvariantCulture);

        host.Fleet.Update("fixed-by-pack", i => i.IfiEnabled = true);
        using var verify = await client.PostAsync($"/api/v1/instances/{id}/verify", null);
        var accepted = await verify.Content.ReadFromJsonAsync<JsonElement>();
        var assessed = await VerifyNowFleet.AssessedAsync(host,
            f => f.Find(id) is { Compliance.Status: ComplianceStatus.Compliant, RemediationPending: null });
        var status = await client.GetFromJsonAsync<JsonElement>($"/api/v1/remediation/packs/{packId}");
        var audit = (await fleet.VerifyAuditAsync()).Single(a => a.Target == $"instance {id} (fixed-by-pack)");

        Assert.Equal(HttpStatusCode.Accepted, verify.StatusCode);
        Assert.Equal($"/api/v1/compliance/instances/{id}", verify.Headers.Location?.OriginalString);
        Assert.Equal(1, accepted.GetProperty("instances").GetInt32());
        // Its own next poll is a day away: the poll that found the fix is the one verify now asked for.
        Assert.True(assessed.Find(id)!.State.LastPollAt >= RequestedAt(accepted));
        var instance = status.GetProperty("instances").EnumerateArray().Single();
        Assert.Equal(("fixed-by-pack", "confirmed"), (instance.GetProperty("name").GetString(), instance.GetProperty("status").GetString()));
        Assert.Equal(TestSignIn.UserName(DashboardRoles.Operator), audit.Actor);
        Assert.Contains("fixed-by-pack", audit.After);
    }

    [Fact]
    public async Task A_key_with_inventory_write_verifies_several_instances_by_key_or_id_at_once()
    {
        var host = fleet.Host;
        var (a, b) = (host.IdOf("fixed-a"), host.IdOf("fixed-b"));
        var key = (await host.Services.GetRequiredService<ApiKeyIssuer>().CreateAsync("cmdb", ["inventory:write"], null, CancellationToken.None)).Key;
        var client = TestSignIn.Anonymous(host.CreateClient());
        client.DefaultRequestHeaders.Add("X-Api-Key", key);

        host.Fleet.Update("fixed-a", i => i.IfiEnabled = true);
        host.Fleet.Update("fixed-b", i => i.IfiEnabled = true);
        using var verify = await client.PostAsJsonAsync("/api/v1/instances/verify",
            new { instances = new[] { a.ToString(CultureInfo.InvariantCulture), b.ToString(CultureInfo.InvariantCulture), a.ToString(CultureInfo.InvariantCulture) } });
        var accepted = await verify.Content.ReadFromJsonAsync<JsonElement>();
        var assessed = await VerifyNowFleet.AssessedAsync(host, f => new[] { a, b }.All(id => f.Find(id) is { Compliance.Status: ComplianceStatus.Compliant }));
        var audit = (await fleet.VerifyAuditAsync()).Single(r => r.Target == "2 instances");

        Assert.Equal(HttpStatusCode.Accepted, verify.StatusCode);
        Assert.Equal(2, accepted.GetProperty("instances").GetInt32());
        Assert.All(new[] { a, b }, id => Assert.True(assessed.Find(id)!.State.LastPollAt >= RequestedAt(accepted)));
        Assert.StartsWith("cmdb (API key ", audit.Actor, StringComparison.Ordinal);
    }
}

/// <summary>Refusals answer 4xx problem details and change nothing: no instance made due, nothing audited.</summary>
public sealed class VerifyNowRefusalTests : IAsyncLifetime
{
    readonly DashboardHost _host = new(
        new ScenarioInstance { Name = "r1", Profile = "2019", IfiEnabled = false },
        new ScenarioInstance { Name = "r2", Profile = "2019", IfiEnabled = false },
        new ScenarioInstance { Name = "r3", Profile = "2019", IfiEnabled = false })
    {
        Settings =
        {
            ["VerifyNow:MaxInstances"] = "2",
            ["VerifyNow:PermitLimit"] = "1",
            ["VerifyNow:WindowSeconds"] = "3600",
        },
    };

    public async Task InitializeAsync()
    {
        await _host.RegisterFleetAsync();
        await _host.PollAllAsync();
        await _host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    async Task<IReadOnlyDictionary<long, string?>> ScheduleAsync()
    {
        await using var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return (await connection.QueryAsync<(long Id, string? NextPollAt)>("SELECT id, next_poll_at FROM instances;"))
            .ToDictionary(r => r.Id, r => r.NextPollAt);
    }

    async Task<HttpClient> KeyClientAsync(string name, params string[] scopes)
    {
        var key = (await _host.Services.GetRequiredService<ApiKeyIssuer>().CreateAsync(name, scopes, null, CancellationToken.None)).Key;
        var client = TestSignIn.Anonymous(_host.CreateClient());
        client.DefaultRequestHeaders.Add("X-Api-Key", key);
        return client;
    }

    static async Task AssertProblemAsync(HttpResponseMessage response, HttpStatusCode status)
    {
        Assert.Equal(status, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        await Task.CompletedTask;
    }

    [Fact]
    public async Task Wrong_role_wrong_scope_too_many_unknown_and_too_often_are_refused_and_change_nothing()
    {
        var (r1, r2, r3) = (_host.IdOf("r1"), _host.IdOf("r2"), _host.IdOf("r3"));
        var before = await ScheduleAsync();
        var viewer = TestSignIn.AsRole(_host.CreateClient(), DashboardRoles.Viewer);
        var reader = await KeyClientAsync("reader", "read");
        var writer = await KeyClientAsync("cmdb", "inventory:write");
        var viewerInCircuit = new ClaimsPrincipal(new ClaimsIdentity(
            [new Claim(ClaimTypes.Name, "viewer@bank.test"), new Claim(ClaimTypes.Role, DashboardRoles.Viewer)], "test"));

        using var byViewer = await viewer.PostAsync($"/api/v1/instances/{r1}/verify", null);
        using var byReader = await reader.PostAsync($"/api/v1/instances/{r1}/verify", null);
        var fromPage = await _host.Services.GetRequiredService<IVerifyNow>().RequestAsync(viewerInCircuit, [r1], "instance r1", CancellationToken.None);
        using var tooMany = await writer.PostAsJsonAsync("/api/v1/instances/verify", new { instances = new[] { $"{r1}", $"{r2}", $"{r3}" } });
        using var none = await writer.PostAsJsonAsync("/api/v1/instances/verify", new { instances = Array.Empty<string>() });
        using var unknown = await writer.PostAsync("/api/v1/instances/999999/verify", null);
        using var unknownInBulk = await writer.PostAsJsonAsync("/api/v1/instances/verify", new { instances = new[] { $"{r1}", "no-such-key" } });
        var unchanged = await ScheduleAsync();
        var auditedBefore = await AuditedAsync();

        using var first = await writer.PostAsync($"/api/v1/instances/{r1}/verify", null);
        var afterFirst = await ScheduleAsync();
        using var second = await writer.PostAsync($"/api/v1/instances/{r2}/verify", null);
        var afterSecond = await ScheduleAsync();
        var audited = await AuditedAsync();

        await AssertProblemAsync(byViewer, HttpStatusCode.Forbidden);
        await AssertProblemAsync(byReader, HttpStatusCode.Forbidden);
        Assert.Equal(VerifyNowRefusal.Forbidden, fromPage.Refusal);
        await AssertProblemAsync(tooMany, HttpStatusCode.BadRequest);
        Assert.Contains("VerifyNow:MaxInstances", await tooMany.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        await AssertProblemAsync(none, HttpStatusCode.BadRequest);
        await AssertProblemAsync(unknown, HttpStatusCode.NotFound);
        await AssertProblemAsync(unknownInBulk, HttpStatusCode.BadRequest);
        Assert.Contains("instances[1]", await unknownInBulk.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(before, unchanged);
        Assert.Empty(auditedBefore);

        Assert.Equal(HttpStatusCode.Accepted, first.StatusCode);
        Assert.True(string.CompareOrdinal(afterFirst[r1], before[r1]) < 0, $"{afterFirst[r1]} should be before {before[r1]}");
        await AssertProblemAsync(second, HttpStatusCode.TooManyRequests);
        Assert.True(second.Headers.RetryAfter?.Delta > TimeSpan.Zero);
        Assert.Equal(afterFirst, afterSecond);
        Assert.Equal([$"instance {r1} (r1)"], audited.Select(a => a.Target));
    }

    async Task<IReadOnlyList<AuditRecord>> AuditedAsync() => await _host.Services.GetRequiredService<AuditLog>()
        .QueryAsync(new AuditFilter(Action: AuditActions.VerifyRequested), null, 100, CancellationToken.None);
}
