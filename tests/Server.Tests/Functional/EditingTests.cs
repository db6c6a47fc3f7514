using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Shared.Security;
using System.Security.Claims;
using Dapper;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Server.Security;
using IfiDashboard.Store;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>The services behind the policy and inventory pages, against the real store and a simulated fleet.</summary>
public sealed class EditingTests
{
    static readonly ClaimsPrincipal Dba = SignedIn("dba", DashboardRoles.Administrator);

    static ClaimsPrincipal SignedIn(string name, string role) =>
        new(new ClaimsIdentity([new Claim(ClaimTypes.Name, name), new Claim(ClaimTypes.Role, role)], "test"));

    static async Task<ComplianceStatus> StatusAsync(DashboardHost host, string name) =>
        (await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None))
            .Instances.Single(i => i.Registration.Name == name).Compliance.Status;

    [Fact]
    public async Task Waiver_turns_non_compliant_into_waived_and_revoking_it_turns_it_back()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "off", Profile = "2019", IfiEnabled = false });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var editor = host.Services.GetRequiredService<IPolicyEditor>();

        var before = await StatusAsync(host, "off");
        var waiverId = await editor.GrantWaiverAsync(host.IdOf("off"), "vendor window CHG-1", DateTimeOffset.UtcNow.AddDays(3), Dba, CancellationToken.None);
        var waived = await StatusAsync(host, "off");
        var view = await editor.GetAsync(CancellationToken.None);
        await editor.RevokeWaiverAsync(waiverId, Dba, CancellationToken.None);
        var after = await StatusAsync(host, "off");

        Assert.Equal((ComplianceStatus.NonCompliant, ComplianceStatus.Waived, ComplianceStatus.NonCompliant), (before, waived, after));
        Assert.Equal("off", Assert.Single(view.Waivers).InstanceName);
    }

    [Fact]
    public async Task New_policy_version_forbidding_ifi_makes_an_instance_with_ifi_non_compliant()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "vault", Profile = "2022", IfiEnabled = true, Inventory = new() { Tags = ["pci"] } });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var editor = host.Services.GetRequiredService<IPolicyEditor>();

        var before = await StatusAsync(host, "vault");
        var version = await editor.SaveRulesAsync([new PolicyRule { Name = "pci", Desired = DesiredState.Forbidden, Tags = ["pci"] }], Dba, CancellationToken.None);
        var after = await StatusAsync(host, "vault");

        Assert.Equal((ComplianceStatus.Compliant, ComplianceStatus.NonCompliant), (before, after));
        Assert.Equal(version, (await editor.GetAsync(CancellationToken.None)).Document.Version);
    }

    [Fact]
    public async Task Waiver_for_an_unknown_instance_or_in_the_past_is_refused()
    {
        await using var host = new DashboardHost();
        var editor = host.Services.GetRequiredService<IPolicyEditor>();

        await Assert.ThrowsAsync<ArgumentException>(() => editor.GrantWaiverAsync(999, "x", DateTimeOffset.UtcNow.AddDays(1), Dba, CancellationToken.None));
        await Assert.ThrowsAsync<ArgumentException>(() => editor.GrantWaiverAsync(1, "x", DateTimeOffset.UtcNow.AddDays(-1), Dba, CancellationToken.None));
    }

    [Fact]
    public async Task An_operator_grants_waivers_up_to_the_configured_length_and_only_an_administrator_longer()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "off", Profile = "2019", IfiEnabled = false });
        host.Settings["Auth:MaxWaiverDays"] = "30";
        await host.RegisterFleetAsync();
        var editor = host.Services.GetRequiredService<IPolicyEditor>();
        var otto = SignedIn("otto", DashboardRoles.Operator);
        var id = host.IdOf("off");

        var refused = await Assert.ThrowsAsync<UnauthorizedAccessException>(() =>
            editor.GrantWaiverAsync(id, "long vendor window", DateTimeOffset.UtcNow.AddDays(31), otto, CancellationToken.None));
        var afterRefusal = (await editor.GetAsync(CancellationToken.None)).Waivers;
        await editor.GrantWaiverAsync(id, "short vendor window", DateTimeOffset.UtcNow.AddDays(29), otto, CancellationToken.None);
        await editor.GrantWaiverAsync(id, "long vendor window", DateTimeOffset.UtcNow.AddDays(200), Dba, CancellationToken.None);
        var authors = (await editor.GetAsync(CancellationToken.None)).Waivers.Select(w => (w.Waiver.Author, w.Waiver.Reason)).Order().ToList();

        Assert.Contains("at most 30 days", refused.Message, StringComparison.Ordinal);
        Assert.Empty(afterRefusal);
        Assert.Equal([("dba", "long vendor window"), ("otto", "short vendor window")], authors);
    }

    /// <summary>One non-compliant instance, polled, with four-eyes approval on and Operators limited to 30-day waivers.</summary>
    static async Task<DashboardHost> FourEyesHostAsync()
    {
        var host = new DashboardHost(new ScenarioInstance { Name = "off", Profile = "2019", IfiEnabled = false });
        host.Settings["Auth:WaiversNeedApproval"] = "true";
        host.Settings["Auth:MaxWaiverDays"] = "30";
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        return host;
    }

    [Fact]
    public async Task With_four_eyes_a_waiver_counts_only_once_someone_other_than_its_author_approves_it()
    {
        await using var host = await FourEyesHostAsync();
        var editor = host.Services.GetRequiredService<IPolicyEditor>();
        var otto = SignedIn("otto", DashboardRoles.Operator);
        var olga = SignedIn("olga", DashboardRoles.Operator);

        var waiverId = await editor.GrantWaiverAsync(host.IdOf("off"), "vendor window CHG-7", DateTimeOffset.UtcNow.AddDays(3), otto, CancellationToken.None);
        var pending = await StatusAsync(host, "off");
        // The author in another case is the same person: identity providers differ in the case they return.
        var selfApproval = await Assert.ThrowsAsync<UnauthorizedAccessException>(() =>
            editor.ApproveWaiverAsync(waiverId, SignedIn("OTTO", DashboardRoles.Administrator), CancellationToken.None));
        var afterSelfApproval = Assert.Single((await editor.GetAsync(CancellationToken.None)).Waivers);
        var approved = await editor.ApproveWaiverAsync(waiverId, olga, CancellationToken.None);
        var approvedTwice = await editor.ApproveWaiverAsync(waiverId, Dba, CancellationToken.None);
        var waived = await StatusAsync(host, "off");
        var view = Assert.Single((await editor.GetAsync(CancellationToken.None)).Waivers);
        var audit = await host.Services.GetRequiredService<IfiDashboard.Store.Audit.AuditLog>().QueryAsync(
            new IfiDashboard.Store.Audit.AuditFilter(Action: IfiDashboard.Store.Audit.AuditActions.WaiverApproved), null, 10, CancellationToken.None);

        Assert.Equal(ComplianceStatus.NonCompliant, pending);
        Assert.Contains("otto granted this waiver", selfApproval.Message, StringComparison.Ordinal);
        Assert.True(afterSelfApproval.Waiver.IsPendingApproval);
        Assert.True(approved);
        Assert.False(approvedTwice);
        Assert.Equal(ComplianceStatus.Waived, waived);
        Assert.Equal(("olga", true), (view.Waiver.ApprovedBy, view.IsActive));
        Assert.Contains("\"approvedBy\":\"olga\"", Assert.Single(audit).After, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_pending_waiver_can_be_rejected_and_an_operator_cannot_approve_one_longer_than_an_operator_may_grant()
    {
        await using var host = await FourEyesHostAsync();
        var editor = host.Services.GetRequiredService<IPolicyEditor>();
        var olga = SignedIn("olga", DashboardRoles.Operator);
        var id = host.IdOf("off");

        var longOne = await editor.GrantWaiverAsync(id, "year-long vendor freeze", DateTimeOffset.UtcNow.AddDays(200), Dba, CancellationToken.None);
        var tooLong = await Assert.ThrowsAsync<UnauthorizedAccessException>(() => editor.ApproveWaiverAsync(longOne, olga, CancellationToken.None));
        var rejected = await editor.RevokeWaiverAsync(longOne, olga, CancellationToken.None);
        var approveRejected = await editor.ApproveWaiverAsync(longOne, SignedIn("ada", DashboardRoles.Administrator), CancellationToken.None);

        Assert.Contains("at most 30 days", tooLong.Message, StringComparison.Ordinal);
        Assert.True(rejected);
        Assert.False(approveRejected);
        Assert.Empty((await editor.GetAsync(CancellationToken.None)).Waivers);
        Assert.Equal(ComplianceStatus.NonCompliant, await StatusAsync(host, "off"));
    }

    [Fact]
    public async Task Registered_instance_is_polled_and_a_bad_port_is_refused_naming_the_field()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "new", Profile = "2019", IfiEnabled = true });
        var editor = host.Services.GetRequiredService<IInventoryEditor>();
        var registration = new InstanceRegistration
        {
            Name = "new", Host = "127.0.0.1", Port = host.Fleet["new"].Port, TrustServerCertificate = true, CredentialName = "fleet",
        };

        var refused = await editor.RegisterAsync(registration with { Port = 70_000 }, CancellationToken.None);
        var registered = await editor.RegisterAsync(registration, CancellationToken.None);
        var duplicate = await editor.RegisterAsync(registration, CancellationToken.None);
        var polled = await host.PollAllAsync();

        Assert.Equal("port", refused.Field);
        Assert.True(registered.Succeeded);
        Assert.Equal("name", duplicate.Field);
        Assert.Equal(1, polled);
        Assert.Equal(ComplianceStatus.Compliant, await StatusAsync(host, "new"));
    }

    [Fact]
    public async Task Test_connection_runs_every_probe_and_stores_nothing()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "candidate", Profile = "2022", IfiEnabled = true });
        var editor = host.Services.GetRequiredService<IInventoryEditor>();

        var snapshot = await editor.TestConnectionAsync(new InstanceRegistration
        {
            Name = "candidate", Host = "127.0.0.1", Port = host.Fleet["candidate"].Port, TrustServerCertificate = true, CredentialName = "fleet",
        }, CancellationToken.None);

        Assert.Equal(IfiState.Enabled, IfiObservation.From(snapshot).State);
        Assert.Contains(snapshot.Probes, p => p.Probe == ProbeNames.Files && p.Outcome == OutcomeClass.Ok);
        await using var connection = await host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        Assert.Equal(0, await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM polls;"));
    }

    [Fact]
    public async Task Edit_renames_and_retire_removes_from_the_fleet()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "old-name", Profile = "2019" });
        await host.RegisterFleetAsync();
        var editor = host.Services.GetRequiredService<IInventoryEditor>();
        var id = host.IdOf("old-name");
        var current = (await editor.GetAsync(id, CancellationToken.None))!;

        var renamed = await editor.UpdateAsync(current with { Name = "new-name", Environment = "Staging" }, CancellationToken.None);
        var afterRename = await editor.GetAsync(id, CancellationToken.None);
        await editor.RetireAsync(id, CancellationToken.None);

        Assert.True(renamed.Succeeded);
        Assert.Equal(("new-name", "Staging"), (afterRename!.Name, afterRename.Environment));
        Assert.Empty(await editor.ListAsync(CancellationToken.None));
    }
}
