using System.Security.Claims;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The policy page's impact preview through the real editor, store and assessment over a simulated fleet polled by the
/// real collector: what it predicts is what the assessment shows once the same change is saved.
/// </summary>
public sealed class PolicyImpactTests : IAsyncLifetime
{
    static readonly ClaimsPrincipal Admin = SignedIn("admin", DashboardRoles.Administrator);
    static readonly ClaimsPrincipal Operator = SignedIn("operator", DashboardRoles.Operator);
    static readonly ClaimsPrincipal Viewer = SignedIn("viewer", DashboardRoles.Viewer);

    readonly DashboardHost _host = new(
        new ScenarioInstance { Name = "vault", Profile = "2022", IfiEnabled = true, Inventory = new() { Tags = ["pci"] } },
        new ScenarioInstance { Name = "cards", Profile = "2019", IfiEnabled = false, Inventory = new() { Tags = ["pci"] } },
        new ScenarioInstance { Name = "lab", Profile = "2019", IfiEnabled = false, Edition = "Express Edition (64-bit)", Inventory = new() { Environment = "Development" } },
        new ScenarioInstance { Name = "erp", Profile = "2017", IfiEnabled = false },
        new ScenarioInstance { Name = "crm", Profile = "2022", IfiEnabled = true },
        new ScenarioInstance { Name = "penguin", Profile = "2022", Platform = "Linux", IfiEnabled = true });

    static ClaimsPrincipal SignedIn(string name, string role) =>
        new(new ClaimsIdentity([new Claim(ClaimTypes.Name, name), new Claim(ClaimTypes.Role, role)], "test"));

    public async Task InitializeAsync()
    {
        await _host.RegisterFleetAsync();
        await _host.PollAllAsync();
        await AssessAsync();
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    IPolicyEditor Editor => _host.Services.GetRequiredService<IPolicyEditor>();

    Task<FleetAssessment> AssessAsync() => _host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);

    static StatusCounts Counts(FleetAssessment fleet) =>
        FleetSummaries.Count(fleet.Instances.Select(i => new AssessedInstance(i.Facts, i.Compliance)));

    /// <summary>Every instance whose status differs between two assessments, as the preview lists them.</summary>
    static List<StatusChange> Differences(FleetAssessment before, FleetAssessment after) =>
        after.Instances.Select(a => (Before: before.Find(a.Registration.Id)!.Compliance, After: a.Compliance, a.Registration.Name))
            .Where(p => p.Before.Status != p.After.Status)
            .Select(p => new StatusChange(p.After.InstanceId, p.Name, p.Before.Status, p.After.Status, p.After.Explanation))
            .OrderBy(c => c.InstanceName, StringComparer.OrdinalIgnoreCase)
            .ToList();

    [Fact]
    public async Task A_rules_preview_predicts_the_statuses_and_counts_the_assessment_shows_after_saving_the_same_rules()
    {
        PolicyRule[] rules =
        [
            new() { Name = "pci", Desired = DesiredState.Forbidden, Tags = ["pci"] },
            new() { Name = "lab", Desired = DesiredState.NotApplicable, Environment = "Development" },
        ];
        var before = await AssessAsync();

        var preview = await Editor.PreviewRulesAsync(rules, Admin, CancellationToken.None);
        await Editor.SaveRulesAsync(rules, Admin, CancellationToken.None);
        var after = await AssessAsync();

        Assert.Equal(Counts(before), preview.Before);
        Assert.Equal(Counts(after), preview.After);
        Assert.Equal(Differences(before, after), preview.Changes);
        Assert.Equal(["cards", "lab", "vault"], preview.Changes.Select(c => c.InstanceName).ToArray());
    }

    [Fact]
    public async Task A_preview_of_host_selectors_predicts_what_saving_them_does_from_the_polled_platform_version_and_edition()
    {
        PolicyRule[] rules =
        [
            // Polled facts decide: penguin reports Linux (sys.dm_os_host_info), erp 2017 and lab Express Edition.
            new() { Name = "Linux forbids", Desired = DesiredState.Forbidden, Platforms = [PolicyPlatform.Linux] },
            new() { Name = "2017 exempt", Desired = DesiredState.NotApplicable, Versions = ["2017"] },
            new() { Name = "Express exempt", Desired = DesiredState.NotApplicable, Editions = [SqlEdition.Express] },
        ];
        var before = await AssessAsync();

        var preview = await Editor.PreviewRulesAsync(rules, Admin, CancellationToken.None);
        await Editor.SaveRulesAsync(rules, Admin, CancellationToken.None);
        var after = await AssessAsync();

        Assert.Equal(Counts(after), preview.After);
        Assert.Equal(Differences(before, after), preview.Changes);
        Assert.Equal(["erp", "lab", "penguin"], preview.Changes.Select(c => c.InstanceName).ToArray());
        Assert.Equal("IFI is on but policy 'Linux forbids' forbids it", preview.Changes.Single(c => c.InstanceName == "penguin").Explanation);
    }

    [Fact]
    public async Task A_waiver_preview_predicts_what_granting_it_does()
    {
        var before = await AssessAsync();
        var expires = DateTimeOffset.UtcNow.AddDays(7);

        var preview = await Editor.PreviewWaiverAsync(_host.IdOf("erp"), "vendor window CHG-7", expires, Operator, CancellationToken.None);
        await Editor.GrantWaiverAsync(_host.IdOf("erp"), "vendor window CHG-7", expires, Operator, CancellationToken.None);
        var after = await AssessAsync();

        Assert.Equal(Counts(after), preview.After);
        Assert.Equal(Differences(before, after), preview.Changes);
        Assert.Equal("erp", Assert.Single(preview.Changes).InstanceName);
    }

    [Fact]
    public async Task A_preview_is_refused_below_the_role_that_may_make_the_change_and_none_stores_anything()
    {
        var stored = await StoreDump.AllTextAsync(_host.Services);
        var erp = _host.IdOf("erp");
        PolicyRule[] rules = [new() { Name = "all", Desired = DesiredState.Forbidden }];

        await Assert.ThrowsAsync<UnauthorizedAccessException>(() => Editor.PreviewRulesAsync(rules, Operator, CancellationToken.None));
        await Assert.ThrowsAsync<UnauthorizedAccessException>(() => Editor.PreviewRulesAsync(rules, Viewer, CancellationToken.None));
        await Assert.ThrowsAsync<UnauthorizedAccessException>(() => Editor.PreviewWaiverAsync(erp, null, DateTimeOffset.UtcNow.AddDays(1), Viewer, CancellationToken.None));
        var allowed = await Editor.PreviewRulesAsync(rules, Admin, CancellationToken.None);
        await Editor.PreviewWaiverAsync(erp, null, DateTimeOffset.UtcNow.AddDays(1), Operator, CancellationToken.None);

        Assert.NotEmpty(allowed.Changes);
        Assert.Equal(stored, await StoreDump.AllTextAsync(_host.Services));
    }

    [Fact]
    public async Task A_waiver_preview_is_refused_as_its_grant_would_be()
    {
        var erp = _host.IdOf("erp");

        var tooLong = await Assert.ThrowsAsync<UnauthorizedAccessException>(() => Editor.PreviewWaiverAsync(erp, null, DateTimeOffset.UtcNow.AddDays(120), Operator, CancellationToken.None));
        var past = await Assert.ThrowsAsync<ArgumentException>(() => Editor.PreviewWaiverAsync(erp, null, DateTimeOffset.UtcNow.AddDays(-1), Operator, CancellationToken.None));
        var unknown = await Assert.ThrowsAsync<ArgumentException>(() => Editor.PreviewWaiverAsync(999_999, null, DateTimeOffset.UtcNow.AddDays(1), Operator, CancellationToken.None));

        Assert.Contains("at most 90 days", tooLong.Message, StringComparison.Ordinal);
        Assert.Equal(("expiresAt", "instanceId"), (past.ParamName, unknown.ParamName));
    }
}
