using IfiDashboard.Client.Pages.Overview;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using Microsoft.Extensions.DependencyInjection;

using IfiDashboard.Client.Tests.Rendering;

namespace IfiDashboard.Client.Tests;

public sealed class OverviewPageTests : ComponentTest
{
    RenderedPage RenderWith(IFleetAssessments assessments)
    {
        Services.AddSingleton(assessments);
        return Render<OverviewPage>();
    }

    RenderedPage RenderFleet(FleetAssessment fleet) => RenderWith(FakeAssessments.Of(fleet));

    string Tile(RenderedPage page, string count) =>
        page.Find($"[data-count='{count}'] .tile-value").TextContent.Trim();

    [Fact]
    public void Empty_fleet_says_no_instance_is_registered()
    {
        var page = RenderFleet(FleetAssessment.Empty(InstanceSpec.Now));

        Assert.Contains("No instances are registered yet.", page.Find(".empty").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("[data-chart]"));
    }

    [Fact]
    public void While_the_first_assessment_runs_the_page_says_it_is_busy()
    {
        var page = RenderWith(FakeAssessments.Pending());

        Assert.Equal("true", page.Find(".loading").GetAttribute("aria-busy"));
    }

    [Fact]
    public void A_failing_read_model_is_reported_as_an_alert_not_an_exception()
    {
        var page = RenderWith(FakeAssessments.Failing("database is locked"));

        var alert = page.Find("[role=alert]");
        AssertReportedWithTraceId(alert.TextContent, "database is locked");
    }

    [Fact]
    public void Status_tiles_count_every_status_and_stale_apart()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed()));

        Assert.Equal("2", Tile(page, "NonCompliant"));
        Assert.Equal("3", Tile(page, "Compliant"));
        Assert.Equal("1", Tile(page, "Waived"));
        Assert.Equal("2", Tile(page, "Unknown"));
        Assert.Equal("1", Tile(page, "NotApplicable"));
        Assert.Equal("2", Tile(page, "stale"));
        // 3 compliant of 8 in scope (the Azure database is not applicable).
        Assert.Equal("37.5 %", Tile(page, "compliance-percent"));
        Assert.Equal("instances?status=NonCompliant", page.Find("[data-count='NonCompliant']").GetAttribute("href"));
    }

    [Fact]
    public void Compliance_is_split_by_desired_state()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed()));

        var rows = page.FindAll("[data-breakdown=desired] tbody tr");
        Assert.Equal(["Required", "Forbidden", "NotApplicable"], rows.Select(r => r.GetAttribute("data-key")));
        var forbidden = page.Find("[data-breakdown=desired] tr[data-key=Forbidden]");
        Assert.Equal("0.0 %", forbidden.QuerySelector("[data-percent]")!.TextContent);
        Assert.Equal("1", forbidden.QuerySelector("[data-status-count=NonCompliant]")!.TextContent);
    }

    [Fact]
    public void Compliance_is_broken_down_by_environment_owner_and_version_each_row_opening_the_grid_filtered_to_it()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed()));

        Assert.Equal(["Cloud", "Development", "Production", "Test"], page.FindAll("[data-breakdown=environment] tbody tr").Select(r => r.GetAttribute("data-key")));
        var production = page.Find("[data-breakdown=environment] tr[data-key=Production]");
        // SQLFIN01, SQLFIN02, SQLOLD, SQLGONE, SQLPCI01: 1 compliant of 5 in scope.
        Assert.Equal("20.0 %", production.QuerySelector("[data-percent]")!.TextContent);
        Assert.Equal("2", production.QuerySelector("[data-status-count=NonCompliant]")!.TextContent);
        Assert.Equal("instances?env=Production", production.QuerySelector("a")!.GetAttribute("href"));
        Assert.Equal("instances?owner=%28no%20owner%29", page.Find("[data-breakdown=owner] tr[data-key='(no owner)'] a").GetAttribute("href"));
        Assert.Equal("instances?version=16", page.Find("[data-breakdown=version] tr[data-key='SQL Server 2022'] a").GetAttribute("href"));
    }

    [Fact]
    public void A_version_group_the_grid_cannot_show_alone_has_no_link()
    {
        // Azure SQL Database reports major version 12, as SQL Server 2014 does: the grid's version filter shows both.
        var fleet = Fleets.Mixed().Concat([
            new InstanceSpec { Id = 20, Name = "AZSQL01", Status = ComplianceStatus.NotApplicable, ProductVersion = "12.0.2000.8", EngineEdition = 5 }.Build(),
            new InstanceSpec { Id = 21, Name = "SQL2014", ProductVersion = "12.0.6024.0" }.Build(),
        ]);

        var page = RenderFleet(Fleets.Of(fleet));

        Assert.Empty(page.FindAll("[data-breakdown=version] tr[data-key='Azure SQL Database'] a"));
        Assert.Empty(page.FindAll("[data-breakdown=version] tr[data-key='SQL Server 2014'] a"));
        Assert.NotEmpty(page.FindAll("[data-breakdown=version] tr[data-key='SQL Server 2019'] a"));
    }

    [Fact]
    public void Every_breakdown_sums_to_the_tiles()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Large(2_000)));

        foreach (var breakdown in page.FindAll("[data-breakdown]").Select(b => b.GetAttribute("data-breakdown")))
            foreach (var status in new[] { "Compliant", "NonCompliant", "Waived", "Unknown", "NotApplicable", "stale" })
                Assert.Equal(Tile(page, status), page.FindAll($"[data-breakdown={breakdown}] [data-status-count={status}]")
                    .Sum(c => int.Parse(c.TextContent, System.Globalization.NumberStyles.AllowThousands, System.Globalization.CultureInfo.InvariantCulture))
                    .ToString("#,0", System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public void Time_lost_shows_three_windows_and_log_zeroing_apart()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed()));

        // 42 + 5 minutes in 30 days; the fake fleet's 7 and 90 days are a quarter and twice that.
        Assert.Equal("47 min 00 s", page.Find("[data-time-lost='30 days'] .tile-value").TextContent);
        Assert.Equal("11 min 45 s", page.Find("[data-time-lost='7 days'] .tile-value").TextContent);
        Assert.Equal("1 h 34 min", page.Find("[data-time-lost='90 days'] .tile-value").TextContent);
        var log = page.Find("[data-log-zeroing]");
        Assert.Contains("not avoidable by IFI", log.TextContent, StringComparison.Ordinal);
        Assert.Contains("4.5 s", log.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void What_to_fix_first_lists_the_non_compliant_worst_first_with_why_and_where_to_start()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed()));

        // SQLHR01 is waived and loses time too: a waiver accepts it, so it is not to fix.
        var rows = page.FindAll("[data-fix-first] li");
        Assert.Equal(["SQLFIN01", "SQLPCI01"], rows.Select(r => r.GetAttribute("data-instance")));
        Assert.Equal("IFI off; 42 min 00 s lost to zeroing in 30 days (no growth evidence read yet); "
                     + "restoring Sales (200 GB) would wait ~34 min 08 s on zeroing (rate assumed)",
            rows[0].QuerySelector("[data-fix-reason]")!.TextContent);
        Assert.StartsWith("IFI on where the default policy forbids it", rows[1].QuerySelector("[data-fix-reason]")!.TextContent, StringComparison.Ordinal);
        Assert.Equal("instances/1", rows[0].QuerySelector("a")!.GetAttribute("href"));
        Assert.Equal("instances/1#h-remediation", rows[0].QuerySelector("[data-fix-remediation]")!.GetAttribute("href"));
        Assert.Contains("What to fix first (2)", page.Find("#h-fix-first").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void With_nothing_to_fix_the_list_says_so()
    {
        var page = RenderFleet(Fleets.Of(Fleets.MixedAfterSqlFin01Fixed().Where(i => i.Registration.Name != "SQLPCI01")));

        Assert.Empty(page.FindAll("[data-fix-first]"));
        Assert.Contains("Nothing to fix", page.Find("[data-fix-first-none]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Unknown_and_stale_instances_are_called_out_with_their_reasons()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed()));

        var unknown = page.FindAll("[data-attention=Unknown] li");
        Assert.Equal(["SQLOLD", "SQLGONE"], unknown.Select(li => li.GetAttribute("data-instance")));
        Assert.Contains("build too old", unknown[0].TextContent, StringComparison.Ordinal);
        var stale = page.FindAll("[data-attention=stale] li");
        Assert.Equal(["SQLGONE", "SQLDEV01"], stale.Select(li => li.GetAttribute("data-instance")));
        Assert.Contains("last good poll 2025-05-08 07:00 UTC", stale[1].TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Freshness_names_the_last_poll_and_the_assessment_time()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed()));

        Assert.Equal("2025-05-08 08:59 UTC", page.Find("[data-last-poll]").TextContent);
        Assert.Equal("2025-05-08 09:00 UTC", page.Find("[data-computed-at]").TextContent);
        Assert.Empty(page.FindAll("[data-progress]"));
    }

    [Fact]
    public void A_first_round_in_progress_shows_how_many_are_polled()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed(), polled: 3));

        var progress = page.Find("[data-progress]");
        Assert.Contains("Polled 3 of 9", string.Join(' ', progress.TextContent.Split((char[])[' ', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        Assert.Equal("3", page.Find("progress").GetAttribute("value"));
        Assert.Equal("9", page.Find("progress").GetAttribute("max"));
    }

    [Fact]
    public void The_trend_chart_has_one_point_per_day()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Mixed(), daily: Fleets.Days(30)));

        Assert.Equal(30, page.FindAll("[data-chart=trend] circle.trend-point").Count);
    }

    [Fact]
    public async Task Interactive_the_tiles_trend_and_lists_follow_each_new_assessment_in_place()
    {
        var assessments = FakeAssessments.Of(Fleets.Of(Fleets.Mixed(), daily: Fleets.Days(3)));
        RenderInteractively();
        var page = RenderWith(assessments);
        Assert.Equal("3", Tile(page, "Compliant"));
        Assert.NotNull(page.Find("[data-live-indicator]"));

        await assessments.LandAsync(Fleets.Of(Fleets.MixedAfterSqlFin01Fixed(), daily: Fleets.Days(4)));

        page.WaitForAssertion(() => Assert.Equal("4", Tile(page, "Compliant")));
        Assert.Equal("1", Tile(page, "NonCompliant"));
        Assert.Equal(4, page.FindAll("[data-chart=trend] circle.trend-point").Count);
    }

    [Fact]
    public void Interactive_the_page_reloads_when_the_circuits_session_ends_and_not_before()
    {
        var auth = AddAuthorization().SetAuthorized("ops@bank.test");
        RenderInteractively();
        NavigateTo("?env=Production");
        RenderWith(FakeAssessments.Of(Fleets.Of(Fleets.Mixed())));
        var navigation = Services.GetRequiredService<Bunit.TestDoubles.BunitNavigationManager>();
        var before = navigation.History.Count;

        // The server's revalidation found the session over: the circuit's user turns anonymous.
        auth.SetNotAuthorized();

        var reload = navigation.History.First(); // newest first
        Assert.Equal(before + 1, navigation.History.Count);
        Assert.True(reload.Options.ForceLoad);
        Assert.EndsWith("?env=Production", reload.Uri, StringComparison.Ordinal);
    }

    [Fact]
    public void Rendered_for_a_request_the_page_reads_once_and_follows_nothing()
    {
        var assessments = FakeAssessments.Of(Fleets.Of(Fleets.Mixed()));
        var page = RenderWith(assessments);

        Assert.Equal(0, assessments.Followers);
        Assert.Empty(page.FindAll("[data-live-indicator]"));
    }

    [Fact]
    public async Task A_closed_page_stops_following_assessments()
    {
        var assessments = FakeAssessments.Of(Fleets.Of(Fleets.Mixed()));
        RenderInteractively();
        RenderWith(assessments);
        Assert.Equal(1, assessments.Followers);

        await DisposeComponentsAsync();

        Assert.Equal(0, assessments.Followers);
    }

    [Fact]
    public void A_fleet_of_ten_thousand_renders_counts_and_short_top_lists()
    {
        var page = RenderFleet(Fleets.Of(Fleets.Large(10_000)));

        Assert.Equal("1,428", Tile(page, "NonCompliant"));
        Assert.Equal(10, page.FindAll("[data-fix-first] li").Count);
        Assert.Equal("All 1,428 to fix", page.Find("[data-fix-first] + p a").TextContent);
        Assert.Equal(15, page.FindAll("[data-attention=Unknown] li").Count);
        Assert.Equal("instances?status=Unknown", page.Find("[data-attention=Unknown] + p a").GetAttribute("href"));
    }
}
