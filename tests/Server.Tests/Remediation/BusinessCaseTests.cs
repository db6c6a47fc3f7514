using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using AngleSharp.Html.Parser;
using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Policy;
using IfiDashboard.Server.Tests.Api.Compliance;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Remediation;

/// <summary>
/// The business case on the overview and in the evidence report, over a simulated fleet whose one instance without
/// IFI has real growth history: its figures are the time-lost API's, and only time lost where the policy requires IFI
/// counts as a saving.
/// </summary>
public sealed class BusinessCaseTests
{
    static string Day(DateTimeOffset at) => at.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    [Fact]
    public async Task The_overview_and_the_report_show_the_time_lost_apis_figures_and_save_only_where_policy_requires_ifi()
    {
        await using var fleet = await ComplianceFleet.StartAsync();
        var auditor = fleet.Client((await fleet.Host.Services.GetRequiredService<ApiKeyIssuer>()
            .CreateAsync("auditor", ["audit:read"], null, CancellationToken.None)).Key);
        var period = $"from={Day(DateTimeOffset.UtcNow.AddDays(-30))}&to={Day(DateTimeOffset.UtcNow.AddDays(1))}";

        var summary = await fleet.Reader.GetFromJsonAsync<JsonElement>("/api/v1/compliance/summary");
        var lost30 = summary.GetProperty("timeLost").GetProperty("last30Days").GetProperty("totals").GetProperty("timeLostSeconds").GetDouble();
        var overview = new HtmlParser().ParseDocument(await fleet.Host.CreateClient().GetStringAsync("/"));
        var periodLost = (await fleet.Reader.GetFromJsonAsync<JsonElement>("/api/v1/compliance/time-lost?" + period))
            .GetProperty("fleet").GetProperty("timeLostSeconds").GetDouble();
        var report = (await auditor.GetFromJsonAsync<JsonElement>("/api/v1/reports/evidence?" + period)).GetProperty("businessCase");

        await fleet.Host.Services.GetRequiredService<PolicyStore>().SaveRulesAsync(
            [new PolicyRule { Name = "emea", Desired = DesiredState.NotApplicable, Tags = ["emea"] }], "test", CancellationToken.None);
        await fleet.Host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var notRequired = new HtmlParser().ParseDocument(await fleet.Host.CreateClient().GetStringAsync("/"));

        string Cell(AngleSharp.Html.Dom.IHtmlDocument page, string line, string key, string column) =>
            page.QuerySelector($"[data-business-case] tr[data-business-line='{line}'][data-key='{key}'] [{column}]")!.TextContent.Trim();
        Assert.True(lost30 > 0, "the fleet's instance without IFI lost time in the last 30 days");
        Assert.Equal(Quantities.Duration(lost30), Cell(overview, "fleet", "fleet", "data-lost"));
        Assert.Equal(Quantities.Duration(lost30), Cell(overview, "fleet", "fleet", "data-saving"));
        Assert.Equal(Quantities.Duration(lost30), Cell(overview, "owner", ComplianceFleet.FormulaOwner, "data-lost"));
        Assert.Equal(Quantities.Duration(0), Cell(overview, "owner", "dba-team", "data-lost"));
        Assert.Equal(periodLost, report.GetProperty("fleet").GetProperty("lostSeconds").GetDouble(), 6);
        Assert.Equal(periodLost, report.GetProperty("byEnvironment").EnumerateArray().Single(l => l.GetProperty("key").GetString() == "Production")
            .GetProperty("savingIfPolicyMetSeconds").GetDouble(), 6);
        Assert.Contains("Saving if policy were met", report.GetProperty("method").GetString());
        // Where the policy does not require IFI, the time is still lost but meeting the policy would not save it.
        Assert.Equal(Quantities.Duration(lost30), Cell(notRequired, "fleet", "fleet", "data-lost"));
        Assert.Equal(Quantities.Duration(0), Cell(notRequired, "fleet", "fleet", "data-saving"));
    }
}
