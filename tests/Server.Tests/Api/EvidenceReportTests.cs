using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Security.Claims;
using System.Text.Json;
using Dapper;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Server.Api.Compliance;
using IfiDashboard.Server.Reports;
using IfiDashboard.Client.Pages.Reports;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Store;
using IfiDashboard.Store.Reports;
using IfiDashboard.Server.Tests.Api.Compliance;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Security;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// The auditors' evidence report over the real API, on a simulated fleet polled through real SqlClient. The tests that
/// only read share one fleet; those granting a waiver start their own, since each expects the report without others'.
/// </summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class EvidenceReportTests(ComplianceFleetFixture shared) : IClassFixture<ComplianceFleetFixture>
{
    static readonly ClaimsPrincipal Dba = new(new ClaimsIdentity(
        [new Claim(ClaimTypes.Name, "dba@bank.test"), new Claim(ClaimTypes.Role, DashboardRoles.Administrator)], "test"));

    static string Today => DateTimeOffset.UtcNow.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);
    static string Tomorrow => DateTimeOffset.UtcNow.AddDays(1).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    static async Task<HttpClient> AuditorAsync(ComplianceFleet fleet) => fleet.Client((await fleet.Host.Services.GetRequiredService<ApiKeyIssuer>()
        .CreateAsync("auditor", ["audit:read"], null, CancellationToken.None)).Key);

    static async Task<(string Body, string? Hash)> GetAsync(HttpClient client, string query)
    {
        using var response = await client.GetAsync("/api/v1/reports/evidence?" + query);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return (await response.Content.ReadAsStringAsync(),
            response.Headers.TryGetValues(EvidenceReportEndpoints.ReportHashHeader, out var values) ? values.Single() : null);
    }

    [Fact]
    public async Task The_report_is_made_while_a_writer_holds_the_store()
    {
        var fleet = shared.Fleet;
        var auditor = await AuditorAsync(fleet);
        var period = $"from={Today}&to={Tomorrow}";
        var unlocked = await GetAsync(auditor, period);

        // A writer in the middle of its transaction (a collector's snapshot, the retention pass): a report reads past
        // it instead of waiting for the store's write lock and answering 503.
        var connections = fleet.Host.Services.GetRequiredService<IDbConnectionFactory>();
        await using var writer = await connections.OpenAsync(CancellationToken.None);
        await using var writing = await writer.BeginTransactionAsync(CancellationToken.None);
        await writer.ExecuteAsync(connections.Dialect.IsPostgres
            ? "LOCK TABLE instances, waivers, daily_compliance IN SHARE ROW EXCLUSIVE MODE;"
            : "UPDATE instances SET owner = owner;", transaction: writing);

        var locked = await GetAsync(auditor, period);

        Assert.Equal(unlocked.Body, locked.Body);
    }

    [Fact]
    public async Task The_report_is_byte_identical_when_made_again_agrees_with_the_compliance_api_and_names_each_evidence_source()
    {
        var fleet = shared.Fleet;
        var auditor = await AuditorAsync(fleet);
        var period = $"from={Today}&to={Tomorrow}";

        var first = await GetAsync(auditor, period);
        var second = await GetAsync(auditor, period);
        var rows = (await fleet.Reader.GetFromJsonAsync<ComplianceRowPage>("/api/v1/compliance/instances?limit=100", new JsonSerializerOptions(JsonSerializerDefaults.Web)))!.Items;
        var report = JsonDocument.Parse(first.Body).RootElement;
        var instances = report.GetProperty("instances").EnumerateArray().ToDictionary(i => i.GetProperty("name").GetString()!);

        Assert.Equal(first.Body, second.Body);
        Assert.Equal(report.GetProperty("manifest").GetProperty("report").GetString(), first.Hash);
        Assert.Equal(rows.Select(r => r.Name).Order(), instances.Keys.Order());
        foreach (var row in rows)
        {
            // Today's worst status is the status the one assessment of today gave.
            Assert.Equal(row.Status, instances[row.Name].GetProperty("worstStatus").GetString());
            Assert.True(row.LastGoodPollAt is null || row.LastGoodPollAt == instances[row.Name].GetProperty("lastPoll").GetProperty("finishedAt").GetDateTimeOffset(),
                $"{row.Name}: last good poll {row.LastGoodPollAt:O}, report {instances[row.Name].GetProperty("lastPoll")}");
        }
        Assert.Equal(EvidenceReports.DmvEvidence, instances["ok-required"].GetProperty("lastPoll").GetProperty("ifiEvidence").GetString());
        // 2012 SP3 has neither the DMV column nor the start-up line: unknown, and the report says there is no evidence.
        Assert.Equal((EvidenceReports.NoEvidence, "Unknown"), (instances["legacy"].GetProperty("lastPoll").GetProperty("ifiEvidence").GetString(),
            instances["legacy"].GetProperty("lastPoll").GetProperty("ifiState").GetString()));
        Assert.Contains(report.GetProperty("changes").EnumerateArray(), c => c.GetProperty("action").GetString() == "instance.registered");
        Assert.False(report.GetProperty("period").GetProperty("isClosed").GetBoolean());
    }

    [Fact]
    public async Task A_waiver_and_its_audit_entry_enter_the_report_and_change_only_their_sections_hashes()
    {
        await using var fleet = await ComplianceFleet.StartAsync();
        var auditor = await AuditorAsync(fleet);
        var period = $"from={Today}&to={Tomorrow}&tag=emea";
        var before = JsonDocument.Parse((await GetAsync(auditor, period)).Body).RootElement.GetProperty("manifest").GetProperty("sections");

        await fleet.Host.Services.GetRequiredService<IPolicyEditor>()
            .GrantWaiverAsync(fleet.IdOf("off-required"), "vendor freeze CHG-42", DateTimeOffset.UtcNow.AddDays(5), Dba, CancellationToken.None);
        var after = JsonDocument.Parse((await GetAsync(auditor, period)).Body).RootElement;
        var sections = after.GetProperty("manifest").GetProperty("sections");

        var waiver = Assert.Single(after.GetProperty("waivers").EnumerateArray());
        Assert.Equal(("off-required", "vendor freeze CHG-42", "dba@bank.test"),
            (waiver.GetProperty("displayName").GetString(), waiver.GetProperty("reason").GetString(), waiver.GetProperty("author").GetString()));
        Assert.Equal("off-required", waiver.GetProperty("instanceName").GetString()); // the deprecated alias (docs/api.md), until v2
        Assert.Equal(["off-required"], after.GetProperty("instances").EnumerateArray().Select(i => i.GetProperty("name").GetString()));
        Assert.Contains(after.GetProperty("changes").EnumerateArray(), c => c.GetProperty("action").GetString() == "waiver.granted");
        Assert.NotEqual(before.GetProperty("waivers").GetString(), sections.GetProperty("waivers").GetString());
        Assert.NotEqual(before.GetProperty("changes").GetString(), sections.GetProperty("changes").GetString());
        Assert.Equal(before.GetProperty("policyVersions").GetString(), sections.GetProperty("policyVersions").GetString());
        Assert.Equal(before.GetProperty("period").GetString(), sections.GetProperty("period").GetString());
    }

    [Fact]
    public async Task The_printable_page_shows_the_apis_figures_and_manifest_links_its_files_and_is_refused_below_the_audit_role()
    {
        await using var fleet = await ComplianceFleet.StartAsync();
        await fleet.Host.Services.GetRequiredService<IPolicyEditor>()
            .GrantWaiverAsync(fleet.IdOf("off-required"), "vendor freeze CHG-42", DateTimeOffset.UtcNow.AddDays(5), Dba, CancellationToken.None);
        var period = $"from={Today}&to={Tomorrow}&environment=Production";
        var auditor = await AuditorAsync(fleet);
        var reader = TestSignIn.AsRole(fleet.Host.CreateClient(), DashboardRoles.Administrator);
        var (body, hash) = await GetAsync(auditor, period);
        var html = await reader.GetStringAsync("/reports/evidence?" + period);
        using var asViewer = await TestSignIn.AsRole(fleet.Host.CreateClient(), DashboardRoles.Viewer).GetAsync("/reports/evidence?" + period);

        var report = JsonDocument.Parse(body).RootElement;
        // The page streams: when the store answers after the first flush, the report comes in a later <template> of the
        // same response that replaces the placeholder (as on the audit page), so the last one holds what is shown.
        var document = new AngleSharp.Html.Parser.HtmlParser().ParseDocument(html);
        AngleSharp.Dom.IParentNode page = document.QuerySelectorAll("blazor-ssr template").OfType<AngleSharp.Html.Dom.IHtmlTemplateElement>()
            .LastOrDefault()?.Content ?? (AngleSharp.Dom.IParentNode)document;
        Assert.Equal(hash, page.QuerySelector("[data-report-sha256]")?.TextContent);
        Assert.Equal(
            report.GetProperty("manifest").GetProperty("sections").EnumerateObject().Select(s => $"{s.Name} {s.Value.GetString()}"),
            page.QuerySelectorAll("[data-manifest-section]").Select(c => $"{c.GetAttribute("data-manifest-section")} {c.TextContent}"));
        Assert.Equal(
            report.GetProperty("instances").EnumerateArray().Select(i => $"{i.GetProperty("name").GetString()} {i.GetProperty("worstStatus").GetString()} "
                + string.Join(",", i.GetProperty("daysByStatus").EnumerateObject().Select(d => $"{d.Name}={d.Value.GetInt32()}"))
                + $" {i.GetProperty("lastPoll").GetProperty("ifiEvidence").GetString()}"),
            page.QuerySelectorAll("[data-instance]").Select(r => $"{r.GetAttribute("data-instance")} {r.GetAttribute("data-worst-status")} "
                + string.Join(",", r.QuerySelectorAll("[data-days]").Select(d => $"{d.GetAttribute("data-status")}={d.GetAttribute("data-days")}"))
                + $" {r.QuerySelector("[data-ifi-evidence]")?.GetAttribute("data-ifi-evidence")}"));
        Assert.Equal(
            report.GetProperty("waivers").EnumerateArray().Select(w => w.GetProperty("id").GetInt64().ToString(CultureInfo.InvariantCulture)),
            page.QuerySelectorAll("[data-waiver]").Select(r => r.GetAttribute("data-waiver")));
        Assert.Contains("vendor freeze CHG-42", page.QuerySelector("[data-section=waivers]")?.TextContent, StringComparison.Ordinal);
        // Granted with four-eyes off (the test host's setting): the report says no approval was needed, not "not approved".
        Assert.False(report.GetProperty("waivers")[0].GetProperty("needsApproval").GetBoolean());
        Assert.Equal("none needed: four-eyes approval was off when it was granted", page.QuerySelector("[data-waiver] [data-approval]")?.TextContent);
        Assert.Equal(
            report.GetProperty("changes").EnumerateArray().Select(c => c.GetProperty("action").GetString()),
            page.QuerySelectorAll("[data-change]").Select(r => r.GetAttribute("data-action")));
        var business = report.GetProperty("businessCase");
        Assert.Equal(
            new[] { business.GetProperty("fleet") }.Concat(business.GetProperty("byEnvironment").EnumerateArray()).Concat(business.GetProperty("byOwner").EnumerateArray())
                .Select(l => $"{l.GetProperty("key").GetString()} {l.GetProperty("lostHoursPerMonth").GetDouble().ToString("0.###", CultureInfo.InvariantCulture)} {l.GetProperty("savingHoursPerMonth").GetDouble().ToString("0.###", CultureInfo.InvariantCulture)}"),
            page.QuerySelectorAll("[data-business-line]").Select(r => $"{r.GetAttribute("data-key")} {r.QuerySelector("[data-lost-hours]")?.GetAttribute("data-lost-hours")} {r.QuerySelector("[data-saving-hours]")?.GetAttribute("data-saving-hours")}"));
        Assert.Equal(["Production"], report.GetProperty("instances").EnumerateArray().Select(i => i.GetProperty("environment").GetString()).Distinct());
        // The page's download links are the API's answers to the same query, readable with the page's role.
        var admin = TestSignIn.AsRole(fleet.Host.CreateClient(), DashboardRoles.Administrator);
        using var json = await admin.GetAsync("/" + page.QuerySelector("[data-download=json]")?.GetAttribute("href"));
        using var csv = await admin.GetAsync("/" + page.QuerySelector("[data-download=csv]")?.GetAttribute("href"));
        Assert.Equal(body, await json.Content.ReadAsStringAsync());
        Assert.Equal("text/csv", csv.Content.Headers.ContentType?.MediaType);
        Assert.Equal(hash, csv.Headers.GetValues(EvidenceReportEndpoints.ReportHashHeader).Single());
        Assert.Equal(HttpStatusCode.Forbidden, asViewer.StatusCode);
    }

    [Fact]
    public async Task An_instance_whose_ifi_comes_from_the_error_log_says_so()
    {
        await using var host = new Functional.DashboardHost(new Simulator.Scenarios.ScenarioInstance { Name = "sp2", Profile = "2014-SP2", IfiEnabled = true });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var auditor = host.CreateClient();
        auditor.DefaultRequestHeaders.Add("X-Api-Key", (await host.Services.GetRequiredService<ApiKeyIssuer>()
            .CreateAsync("auditor", ["audit:read"], null, CancellationToken.None)).Key);

        var report = JsonDocument.Parse((await GetAsync(auditor, $"from={Today}&to={Tomorrow}")).Body).RootElement;

        var poll = Assert.Single(report.GetProperty("instances").EnumerateArray()).GetProperty("lastPoll");
        Assert.Equal((EvidenceReports.ErrorLogEvidence, "Enabled"), (poll.GetProperty("ifiEvidence").GetString(), poll.GetProperty("ifiState").GetString()));
    }

    [Fact]
    public async Task The_report_needs_the_audit_scope_and_both_bounds()
    {
        var fleet = shared.Fleet;
        var auditor = await AuditorAsync(fleet);

        using var withReadScope = await fleet.Reader.GetAsync($"/api/v1/reports/evidence?from={Today}&to={Tomorrow}");
        using var withoutTo = await auditor.GetAsync($"/api/v1/reports/evidence?from={Today}");
        using var csv = await auditor.GetAsync($"/api/v1/reports/evidence?from={Today}&to={Tomorrow}&format=csv");
        var csvText = await csv.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.Forbidden, withReadScope.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, withoutTo.StatusCode);
        Assert.Contains("\"to\"", await withoutTo.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.StartsWith("id,name,externalKey,environment,owner,worstStatus,daysCompliant", csvText, StringComparison.Ordinal);
        // A CMDB owner that looks like a formula is neutralised as in every other export.
        Assert.DoesNotContain("\n5,off-required,CI-OFF,Production,=HYPERLINK", csvText.Replace("\r", "", StringComparison.Ordinal), StringComparison.Ordinal);
        Assert.Equal(5, csvText.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
    }
}
