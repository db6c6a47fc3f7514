using System.Net;
using System.Text.Json;
using IfiDashboard.Server.Api.Compliance;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api.Compliance;

public sealed class ComplianceApiTests(ComplianceFleetFixture fixture) : IClassFixture<ComplianceFleetFixture>
{
    HttpClient Reader => fixture.Fleet.Reader;

    [Fact]
    public async Task Summary_counts_statuses_desired_states_groups_and_time_lost()
    {
        var summary = await Json.GetAsync<ComplianceSummary>(Reader, "/api/v1/compliance/summary");

        Assert.Equal(4, summary.Counts.Total);
        Assert.Equal(2, summary.Counts.Compliant);
        Assert.Equal(1, summary.Counts.NonCompliant);
        Assert.Equal(1, summary.Counts.Unknown);
        Assert.Equal(0, summary.Counts.Stale);
        Assert.Equal(50.0, summary.Counts.CompliancePercent);
        Assert.Equal(new DesiredStateCounts(4, 0, 0), summary.ByDesiredState);
        Assert.Equal(["Production", "Test"], summary.ByEnvironment.Select(g => g.Key));
        Assert.Equal(3, summary.ByEnvironment[0].Counts.Total);
        Assert.Contains(summary.ByTag, g => g.Key == "(no tag)" && g.Counts.Unknown == 1);
        Assert.Contains(summary.ByMajorVersion, g => g.Key == "SQL Server 2022" && g.Counts.Compliant == 1);
        Assert.Contains(summary.ByOwner, g => g.Key == "dba-team" && g.Counts.Total == 2);
        Assert.Equal(2.0, summary.TimeLost.Last7Days.Totals.TimeLostSeconds, 6);
        Assert.Equal(0.5, summary.TimeLost.Last7Days.Totals.LogZeroingSeconds, 6);
        Assert.Equal(19.0, summary.TimeLost.Last90Days.Totals.TimeLostSeconds, 6);
        Assert.NotNull(summary.LastPollAt);
        Assert.Equal(4, summary.Polled);
        Assert.True(summary.PolicyVersion >= 0);
    }

    [Theory]
    [InlineData("status=NonCompliant", "off-required")]
    [InlineData("status=compliant,unknown", "ok-required,legacy,pci-on")]
    [InlineData("environment=test", "pci-on")]
    [InlineData("tag=EMEA", "off-required")]
    [InlineData("owner=DBA-team", "ok-required,pci-on")]
    [InlineData("majorVersion=16", "pci-on")]
    [InlineData("stale=true", "")]
    [InlineData("stale=false&environment=Production&tag=tier1", "ok-required,off-required")]
    public async Task List_filters_combine(string query, string expected)
    {
        var page = await Json.GetAsync<ComplianceRowPage>(Reader, "/api/v1/compliance/instances?" + query);

        var byId = page.Items.OrderBy(r => r.Id).Select(r => r.Name);
        Assert.Equal(expected.Split(',', StringSplitOptions.RemoveEmptyEntries).OrderBy(fixture.Fleet.IdOf), byId);
        Assert.Null(page.NextCursor);
    }

    [Fact]
    public async Task List_pages_in_id_order_with_the_cursor_and_rows_carry_the_cmdb_key()
    {
        var seen = new List<ComplianceRow>();
        string? cursor = null;
        do
        {
            var page = await Json.GetAsync<ComplianceRowPage>(Reader, "/api/v1/compliance/instances?limit=1" + (cursor is null ? "" : "&cursor=" + cursor));
            Assert.True(page.Items.Count <= 1);
            seen.AddRange(page.Items);
            cursor = page.NextCursor;
        } while (cursor is not null);

        Assert.Equal(["ok-required", "off-required", "legacy", "pci-on"], seen.Select(r => r.Name));
        Assert.Equal(["CI-OK", "CI-OFF", "CI-LEGACY", "CI-PCI"], seen.Select(r => r.ExternalKey));
        var off = seen[1];
        Assert.Equal("NonCompliant", off.Status);
        Assert.Equal("IFI is off but the default policy requires it", off.Explanation);
        Assert.Equal("Required", off.DesiredState);
        Assert.Equal("Disabled", off.ObservedIfi);
        Assert.Equal(2.0, off.TimeLost7DaysSeconds!.Value, 6);
        Assert.Equal("Exact", off.TimeLost7DaysCertainty);
        Assert.Equal("build too old", seen[2].UnknownReason);
    }

    [Fact]
    public async Task Instance_detail_by_external_key_or_id_explains_the_status_and_its_numbers()
    {
        var byKeyText = await Reader.GetStringAsync("/api/v1/compliance/instances/CI-OFF");
        var byIdText = await Reader.GetStringAsync($"/api/v1/compliance/instances/{fixture.Fleet.IdOf("off-required")}");
        var byKey = JsonSerializer.Deserialize<InstanceComplianceResource>(byKeyText, JsonSerializerOptions.Web)!;

        Assert.Equal("CI-OFF", byKey.ExternalKey);
        Assert.Equal("NonCompliant", byKey.Status);
        Assert.Equal(new DesiredStateResource("Required", "Default", null, byKey.Desired.PolicyVersion), byKey.Desired);
        Assert.Contains(byKey.Reasons, r => r.StartsWith("IFI is required by the default policy", StringComparison.Ordinal));
        Assert.Contains(byKey.Reasons, r => r.Contains("reports IFI off", StringComparison.Ordinal));
        Assert.Equal("Disabled", byKey.Observed.Ifi);
        Assert.Null(byKey.Waiver);
        Assert.Equal("VirtualAccount", byKey.Account.Kind);
        Assert.Equal("GrantPrivilege", byKey.Remediation.Kind);
        Assert.Contains(byKey.Remediation.Steps, s => s.Contains("Perform volume maintenance tasks", StringComparison.Ordinal));
        Assert.Equal(1, byKey.ZeroingRate.Samples);
        Assert.Equal(64.0 * 1024 * 1024, byKey.ZeroingRate.BytesPerSecond, 3);
        Assert.False(byKey.ZeroingRate.Assumed);
        Assert.Equal(2.0, byKey.TimeLost.Last7DaysSeconds!.Value, 6);
        Assert.Equal("Exact", byKey.TimeLost.Last7DaysCertainty);
        Assert.Equal(0.5, byKey.TimeLost.LogZeroingLast30DaysSeconds, 6);
        var sales = Assert.Single(byKey.RestoreRisk, d => d.DatabaseName == "Sales");
        Assert.Equal(152.0, sales.ExtraSeconds, 3);   // 10 GB at 64 MB/s on D:, less the 512 MB log's 8 s on L: beside it
        Assert.Contains(byKey.GrowthStalls, s => s.FileName == "Sales" && s.StallSeconds > 0);
        Assert.Equal(byKeyText, byIdText);
    }

    [Fact]
    public async Task Unknown_instance_is_404_problem_and_an_unknown_status_names_its_reason()
    {
        var missing = await Reader.GetAsync("/api/v1/compliance/instances/CI-NOPE");
        var legacy = await Json.GetAsync<InstanceComplianceResource>(Reader, "/api/v1/compliance/instances/CI-LEGACY");

        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        Assert.Equal("application/problem+json", missing.Content.Headers.ContentType?.MediaType);
        Assert.Equal("Unknown", legacy.Status);
        Assert.Equal("build too old", legacy.Observed.UnknownReason);
        Assert.Equal("PatchBuild", legacy.Remediation.Kind);
    }

    [Fact]
    public async Task Growth_events_default_to_the_last_30_days_and_carry_each_verdict()
    {
        var page = await Json.GetAsync<GrowthEventPage>(Reader, "/api/v1/compliance/instances/CI-OFF/growth-events");

        Assert.Equal(TimeSpan.FromDays(30), page.To - page.From);
        Assert.Equal(["DataZeroedWithoutIfi", "DataZeroedWithoutIfi", "LogZeroed"], page.Items.Select(e => e.Zeroing));
        Assert.Equal([1.0, 1.0, 0.0], page.Items.Select(e => e.TimeLostSeconds));
        Assert.Equal(0.5, page.Items[2].ZeroingSeconds, 6);
        Assert.All(page.Items, e => Assert.Equal("Disabled", e.IfiAtEvent));
        Assert.Equal(["data", "data", "log"], page.Items.Select(e => e.FileKind));
        Assert.Equal(2.0, page.Totals.TimeLostSeconds, 6);
        Assert.Null(page.NextCursor);
    }

    [Fact]
    public async Task Growth_events_of_a_longer_window_page_without_gaps_or_repeats()
    {
        var from = DateTimeOffset.UtcNow.AddDays(-60).ToString("yyyy-MM-dd");
        var all = await Json.GetAsync<GrowthEventPage>(Reader, $"/api/v1/compliance/instances/CI-OFF/growth-events?from={from}");
        var paged = new List<GrowthEventResource>();
        string? cursor = null;
        do
        {
            var page = await Json.GetAsync<GrowthEventPage>(Reader,
                $"/api/v1/compliance/instances/CI-OFF/growth-events?from={from}&to={Uri.EscapeDataString(all.To.ToString("O"))}&limit=3" + (cursor is null ? "" : "&cursor=" + cursor));
            paged.AddRange(page.Items);
            cursor = page.NextCursor;
        } while (cursor is not null);

        Assert.Equal(4, all.Items.Count);
        Assert.Equal(3.0, all.Totals.TimeLostSeconds, 6);
        Assert.Equal(all.Items, paged);
        Assert.True(all.Items.Zip(all.Items.Skip(1)).All(p => p.First.StartTime <= p.Second.StartTime));
    }

    [Fact]
    public async Task Time_lost_for_any_window_groups_by_instance_database_or_environment()
    {
        var from = DateTimeOffset.UtcNow.AddDays(-60).ToString("yyyy-MM-dd");
        var byInstance = await Json.GetAsync<TimeLostReport>(Reader, "/api/v1/compliance/time-lost");
        var byDatabase = await Json.GetAsync<TimeLostReport>(Reader, $"/api/v1/compliance/time-lost?groupBy=database&from={from}");
        var byEnvironment = await Json.GetAsync<TimeLostReport>(Reader, "/api/v1/compliance/time-lost?groupBy=environment");

        Assert.Equal("instance", byInstance.GroupBy);
        Assert.Equal(2.0, byInstance.Fleet.TimeLostSeconds, 6);
        Assert.Equal(4, byInstance.Groups.Count);
        Assert.Equal("off-required", byInstance.Groups[0].Key);
        Assert.Equal("CI-OFF", byInstance.Groups[0].ExternalKey);
        var sales = Assert.Single(byDatabase.Groups);
        Assert.Equal("off-required/Sales", sales.Key);
        Assert.Equal(3.0, sales.Totals.TimeLostSeconds, 6);
        Assert.Equal(0.5, sales.Totals.LogZeroingSeconds, 6);
        Assert.Equal(["Production", "Test"], byEnvironment.Groups.Select(g => g.Key));
        Assert.Equal(2.0, byEnvironment.Groups[0].Totals.TimeLostSeconds, 6);
    }

    /// <summary>
    /// The resident assessment holds each instance's totals per window for the overview, not a breakdown by database
    /// for every instance of the fleet: the breakdown is built from the store when an API call asks for it.
    /// </summary>
    [Fact]
    public async Task The_resident_windows_hold_instance_totals_and_the_database_breakdown_is_built_on_request()
    {
        var fleet = await fixture.Fleet.Host.Services.GetRequiredService<IfiDashboard.Compliance.Assessment.IFleetAssessments>()
            .GetAsync(CancellationToken.None);
        var windows = new[] { fleet.Last7Days, fleet.Last30Days, fleet.Last90Days };
        Assert.All(windows, w => Assert.All(w.Instances, i => Assert.Empty(i.Databases)));
        var offRequired = fleet.Last30Days.Instances.Single(i => i.InstanceName == "off-required");
        Assert.Equal(2.0, offRequired.Totals.TimeLost.TotalSeconds, 6);

        var byDatabase = await Json.GetAsync<TimeLostReport>(Reader, "/api/v1/compliance/time-lost?groupBy=database");
        var sales = Assert.Single(byDatabase.Groups);
        Assert.Equal("off-required/Sales", sales.Key);
        Assert.Equal(2.0, sales.Totals.TimeLostSeconds, 6);
    }

    [Fact]
    public async Task Restore_risk_lists_the_fleets_worst_databases_and_growth_stalls()
    {
        var report = await Json.GetAsync<RestoreRiskReport>(Reader, "/api/v1/compliance/restore-risk?top=1");

        var database = Assert.Single(report.Databases);
        Assert.Equal(("off-required", "Sales", "CI-OFF"), (database.InstanceName, database.DatabaseName, database.ExternalKey));
        Assert.Equal(152.0, database.ExtraSeconds, 3);
        var stall = Assert.Single(report.GrowthStalls);
        Assert.Equal(1.0, stall.StallSeconds!.Value, 3);   // 64 MB at 64 MB/s
        Assert.Equal(1, report.Top);
        Assert.True(report.FleetRestoreExtraSeconds > 152.0);   // system databases too
    }

    [Fact]
    public async Task An_instances_restore_figure_is_its_slowest_database_as_on_the_pages_and_the_sum_has_its_own_name()
    {
        var rows = await Json.GetAsync<ComplianceRowPage>(Reader, "/api/v1/compliance/instances?status=NonCompliant");
        var assessment = (await fixture.Fleet.Host.Services.GetRequiredService<IfiDashboard.Compliance.Assessment.IFleetAssessments>()
            .GetAsync(CancellationToken.None)).Instances.Single(i => i.Registration.Name == "off-required");

        var row = Assert.Single(rows.Items);
        // The Sales database's 152 s, the wait the overview's "fix first" list and the instances grid show.
        Assert.Equal(152.0, row.RestoreExtraSeconds, 3);
        Assert.Equal(assessment.Restore.Slowest!.ExtraSeconds, row.RestoreExtraSeconds);
        Assert.Equal(152.0 / 60, IfiDashboard.Client.Pages.Instances.InstanceGridRow.From(assessment).RestoreMinutes, 3);
        Assert.True(row.RestoreExtraSecondsAllDatabases > 152.0, $"system databases too: {row.RestoreExtraSecondsAllDatabases}");
    }

    public static TheoryData<string> ReadPaths() =>
    [
        "/api/v1/compliance/summary",
        "/api/v1/compliance/instances",
        "/api/v1/compliance/instances/CI-OFF",
        "/api/v1/compliance/instances/CI-OFF/growth-events",
        "/api/v1/compliance/time-lost?groupBy=database",
        "/api/v1/compliance/restore-risk",
        "/api/v1/compliance/export",
        "/api/v1/changes",
    ];

    [Theory]
    [MemberData(nameof(ReadPaths))]
    public async Task Reads_answer_304_while_their_representation_is_unchanged(string path)
    {
        // A background assessment between the two requests changes computedAt, and so the tag: then try again.
        for (var attempt = 0; ; attempt++)
        {
            var first = await Reader.GetAsync(path);
            Assert.Equal(HttpStatusCode.OK, first.StatusCode);
            var etag = first.Headers.ETag!;
            var request = new HttpRequestMessage(HttpMethod.Get, path);
            request.Headers.IfNoneMatch.Add(etag);
            var second = await Reader.SendAsync(request);
            if (second.StatusCode == HttpStatusCode.NotModified || attempt == 2)
            {
                Assert.Equal(HttpStatusCode.NotModified, second.StatusCode);
                Assert.Equal(etag, second.Headers.ETag);
                return;
            }
        }
    }
}
