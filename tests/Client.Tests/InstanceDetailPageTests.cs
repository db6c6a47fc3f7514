using IfiDashboard.Client.Components;
using IfiDashboard.Client.Pages.Detail;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Security;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection;

using IfiDashboard.Client.Tests.Rendering;

namespace IfiDashboard.Client.Tests;

public sealed class InstanceDetailPageTests : ComponentTest
{
    readonly FakeAssessments _assessments = FakeAssessments.Of(FleetAssessment.Empty(InstanceSpec.Now));

    RenderedPage RenderWith(IInstanceDetails details, long id = 1, string query = "")
    {
        Services.AddSingleton(details);
        Services.AddSingleton<IFleetAssessments>(_assessments);
        NavigateTo($"instances/{id}{query}");
        return Render<InstanceDetailPage>(p => p.Add(x => x.Id, id));
    }

    RenderedPage RenderDetail(InstanceDetail detail, string query = "") =>
        RenderWith(FakeDetails.Of(detail), detail.Assessment.Registration.Id, query);

    [Fact]
    public void An_unknown_id_says_no_such_instance()
    {
        var page = RenderWith(FakeDetails.Of(Details.SqlFin01()), id: 99);

        Assert.Contains("No active instance has the id 99", page.Find("[data-not-found]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Loading_says_so()
    {
        var page = RenderWith(FakeDetails.Pending());

        Assert.Equal("true", page.Find(".loading").GetAttribute("aria-busy"));
    }

    [Fact]
    public void A_failing_read_is_reported_as_an_alert()
    {
        var page = RenderWith(FakeDetails.Failing("disk I/O error"));

        AssertReportedWithTraceId(page.Find("[role=alert]").TextContent, "disk I/O error");
    }

    [Fact]
    public void Status_explanation_and_numbered_remediation_steps_are_shown()
    {
        var detail = Details.SqlFin01();
        var page = RenderDetail(detail);

        Assert.Equal("SQLFIN01", page.Find("h1").TextContent);
        Assert.Equal("NonCompliant", page.Find(".status-line [data-status]").GetAttribute("data-status"));
        Assert.Equal("IFI is off but the default policy requires it", page.Find("[data-explanation]").TextContent);
        Assert.Equal("GrantPrivilege", page.Find("[data-remediation]").GetAttribute("data-remediation"));
        var steps = page.FindAll("[data-remediation] ol li").Select(li => li.TextContent).ToList();
        Assert.Equal(detail.Assessment.Remediation.Steps, steps);
        Assert.Contains("secpol.msc", steps[0], StringComparison.Ordinal);
    }

    [Fact]
    public void Identity_services_and_account_are_shown()
    {
        var page = RenderDetail(Details.SqlFin01());

        Assert.Contains(@"NT Service\MSSQLSERVER", page.Find(".facts").TextContent, StringComparison.Ordinal);
        Assert.Contains("virtual account", page.Find(".facts").TextContent, StringComparison.Ordinal);
        var services = page.FindAll("[data-table=services] tbody tr");
        Assert.Equal(2, services.Count);
        Assert.Contains("(engine)", services[0].TextContent, StringComparison.Ordinal);
        Assert.Equal("N", services[0].Children[5].TextContent);
    }

    [Fact]
    public void Files_show_effective_ifi_and_why()
    {
        var page = RenderDetail(Details.SqlFin01());

        var data = page.Find("tr[data-file=Finance]");
        Assert.Equal("Off", data.QuerySelector("[data-effective-ifi]")!.GetAttribute("data-effective-ifi"));
        Assert.Contains("200 GB", data.TextContent, StringComparison.Ordinal);
        Assert.Contains("10 %", data.TextContent, StringComparison.Ordinal);
        Assert.Contains("Log files are always zeroed", page.Find("tr[data-file=Finance_log]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void The_zeroing_rate_states_its_method_and_restore_risk_is_per_database()
    {
        var page = RenderDetail(Details.SqlFin01());

        Assert.Equal("AssumedDefault", page.Find("[data-rate-method]").GetAttribute("data-rate-method"));
        Assert.Contains("assumed", page.Find("[data-rate-method]").TextContent, StringComparison.Ordinal);
        var sales = page.Find("[data-table=restore] tr[data-database=Sales]");
        Assert.Contains("34 min 08 s", sales.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Interactive_the_page_reads_the_instance_again_when_an_assessment_lands()
    {
        var current = Details.SqlFin01(growthEvents: 4);
        RenderInteractively();
        var page = RenderWith(new FakeDetails((_, window) => Task.FromResult<InstanceDetail?>(FakeDetails.InWindow(current, window))), current.Assessment.Registration.Id);
        Assert.Equal(4, page.FindAll("[data-table=growth] tbody tr").Count);

        current = Details.SqlFin01(growthEvents: 8); // a poll stored four more growth events
        await _assessments.LandAsync(FleetAssessment.Empty(InstanceSpec.Now));

        page.WaitForAssertion(() => Assert.Equal(8, page.FindAll("[data-table=growth] tbody tr").Count));
        Assert.NotNull(page.Find("[data-live-indicator]"));
    }

    [Fact]
    public void A_TDE_database_gets_the_advice_IFI_cannot_give()
    {
        var detail = Details.SqlFin01();
        var finance = detail.Assessment.Restore.Databases.Single() with { DatabaseName = "Finance", TdeEncrypted = true };
        var page = RenderDetail(detail with
        {
            Assessment = detail.Assessment with { Restore = detail.Assessment.Restore with { Databases = [finance] } },
        });

        var advice = page.Find("[data-remediation] [data-tde-advice=Finance]");
        Assert.Contains("Finance uses TDE: IFI cannot help its data files", advice.TextContent, StringComparison.Ordinal);
        Assert.Contains("fixed growth increment", advice.TextContent, StringComparison.Ordinal);
        Assert.Single(page.FindAll("[data-tde-advice]"));
    }

    [Fact]
    public void Growth_events_are_a_chart_and_a_table()
    {
        var page = RenderDetail(Details.SqlFin01(growthEvents: 8));

        Assert.Equal(6, page.FindAll("[data-chart=growth] circle.growth-point").Count);
        Assert.Equal(2, page.FindAll("[data-chart=growth] rect.growth-point").Count);
        Assert.Equal(8, page.FindAll("[data-table=growth] tbody tr").Count);
        Assert.Contains("assumed", page.FindAll("[data-table=growth] tbody tr")[0].TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Many_growth_events_are_paged_in_the_table()
    {
        var page = RenderDetail(Details.SqlFin01(growthEvents: 120), "?events=3");

        Assert.Equal(20, page.FindAll("[data-table=growth] tbody tr").Count);
        Assert.Contains("Page 3 of 3", page.Find(".pager").TextContent, StringComparison.Ordinal);
        Assert.Equal("instances/1?growth=90d&events=2#h-growth", page.Find(".pager a[rel=prev]").GetAttribute("href"));
    }

    [Fact]
    public void The_growth_window_is_chosen_by_links_that_keep_it_in_the_address()
    {
        var page = RenderDetail(Details.SqlFin01(growthEvents: 30), "?growth=7d");

        var windows = page.FindAll("nav.window-select a");
        Assert.Equal(["24 h", "7 days", "30 days", "90 days", "all kept"], windows.Select(a => a.TextContent));
        Assert.Equal("instances/1?growth=24h#h-growth", windows[0].GetAttribute("href"));
        Assert.Equal(["7d"], page.FindAll("nav.window-select a[aria-current=true]").Select(a => a.GetAttribute("data-growth-window")));
        Assert.Equal("Growth events, last 7 days", page.Find("#h-growth").TextContent);
        // 30 growths seven hours apart from three hours ago: the last 168 hours hold 24 of them.
        var starts = page.FindAll("[data-table=growth] tbody tr").Select(r => DateTimeOffset.Parse(r.GetAttribute("data-start")!, System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.Equal(24, starts.Count);
        Assert.All(starts, s => Assert.True(s >= InstanceSpec.Now.AddDays(-7)));
    }

    [Fact]
    public void A_narrower_window_plots_and_lists_only_its_own_growths()
    {
        var page = RenderDetail(Details.SqlFin01(growthEvents: 24), "?growth=24h");

        Assert.Equal(4, page.FindAll("[data-chart=growth] .growth-point").Count);
        Assert.Equal(4, page.FindAll("[data-table=growth] tbody tr").Count);
        Assert.Equal("Growth events, last 24 h", page.Find("#h-growth").TextContent);
    }

    [Theory]
    [InlineData("", 309, "Page 1 of 7")]
    [InlineData("?growth=all&events=3", 400, "Page 3 of 8")]
    public void All_kept_reaches_past_the_default_90_days(string query, int growths, string pager)
    {
        // 400 growths seven hours apart span 117 days.
        var page = RenderDetail(Details.SqlFin01(growthEvents: 400), query);

        Assert.Equal(growths, page.FindAll("[data-chart=growth] .growth-point").Count);
        Assert.Contains(pager, page.Find(".pager").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void The_pages_of_a_window_keep_the_window()
    {
        var page = RenderDetail(Details.SqlFin01(growthEvents: 400), "?growth=all&events=3");

        Assert.Equal("instances/1?growth=all&events=2#h-growth", page.Find(".pager a[rel=prev]").GetAttribute("href"));
        Assert.Equal("Growth events, all kept", page.Find("#h-growth").TextContent);
    }

    [Fact]
    public void An_unknown_window_in_the_address_shows_the_default_90_days()
    {
        var page = RenderDetail(Details.SqlFin01(growthEvents: 4), "?growth=fortnight");

        Assert.Equal(["90d"], page.FindAll("nav.window-select a[aria-current=true]").Select(a => a.GetAttribute("data-growth-window")));
    }

    [Fact]
    public void A_window_without_growth_says_so_and_still_offers_the_other_windows()
    {
        var page = RenderDetail(Details.SqlFin01(growthEvents: 0), "?growth=24h");

        Assert.Equal("No growth in this window.", page.Find("#h-growth ~ [data-growth-empty]").TextContent);
        Assert.Empty(page.FindAll("[data-table=growth]"));
        Assert.Equal(5, page.FindAll("nav.window-select a").Count);
    }

    [Fact]
    public void The_last_poll_lists_each_probe_with_what_to_do_about_a_failure()
    {
        // The client's own text and error number are an Administrator's (PollFailureText); an Administrator also gets
        // the Verify now button, which asks for its service.
        Services.AddSingleton<IVerifyNow>(new AcceptingVerifyNow(InstanceSpec.Now));
        AddAuthorization().SetAuthorized("admin@bank.test").SetRoles(IfiDashboard.Shared.Security.DashboardRoles.Administrator);
        var page = RenderDetail(Details.SqlFin01());

        var backups = page.Find("tr[data-probe=backups]");
        Assert.Equal("PermissionMissing", backups.GetAttribute("data-outcome"));
        Assert.Contains("(error 229)", backups.TextContent, StringComparison.Ordinal);
        Assert.Contains("SELECT on msdb.dbo.backupset", backups.Children[3].TextContent, StringComparison.Ordinal);
        Assert.Equal("", page.Find("tr[data-probe=connect]").Children[3].TextContent);
    }

    [Fact]
    public void An_unreachable_instance_tells_how_to_check_the_connection()
    {
        var page = RenderDetail(Details.SqlFin01(probes: [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Unreachable, "A network-related error occurred")]));

        Assert.Contains("Test-NetConnection", page.Find("tr[data-probe=connect]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Timeline_and_poll_history_are_listed_newest_first()
    {
        var page = RenderDetail(Details.SqlFin01());

        var changes = page.FindAll("[data-change]");
        Assert.Equal(2, changes.Count);
        Assert.Contains(page.FindAll("[data-change=IfiFlag]"), li => li.TextContent.Contains("IFI lost after the restart on 3 May 2025", StringComparison.Ordinal));
        var polls = page.FindAll("[data-table=polls] tbody tr");
        Assert.Equal(["Ok", "Timeout"], polls.Select(p => p.GetAttribute("data-poll-outcome")));
        Assert.Contains("row-bad", polls[1].ClassList);
    }

    [Fact]
    public void A_change_seen_by_one_poll_that_disagrees_with_the_history_is_marked_and_the_others_are_not()
    {
        var detail = Details.SqlFin01();
        var flip = detail.Timeline.Single(c => c.Kind == IfiDashboard.Compliance.Timeline.TimelineChangeKind.IfiFlag);

        var page = RenderDetail(detail with { Doubts = new Dictionary<(Guid, IfiDashboard.Compliance.Timeline.TimelineChangeKind), string>
        {
            [(flip.SeenBySnapshotId, flip.Kind)] = "polled by the collector rogue, the poll before by dc1",
        } });

        var marked = Assert.Single(page.FindAll("[data-change] [data-doubt]"));
        Assert.Contains("polled by the collector rogue, the poll before by dc1", marked.TextContent, StringComparison.Ordinal);
        Assert.NotNull(marked.Closest("[data-change=IfiFlag]"));
    }

    [Fact]
    public void A_clean_poll_is_one_line_rather_than_a_table_of_oks()
    {
        var page = RenderDetail(Details.SqlFin01(probes: [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)]));

        Assert.Equal("All 2 probes succeeded: connect, services.", page.Find("[data-probes-ok]").TextContent);
        Assert.Empty(page.FindAll("[data-table=probes]"));
    }

    /// <summary>Accepts every request at <see cref="RequestedAt"/> and records the instances asked for.</summary>
    sealed class AcceptingVerifyNow(DateTimeOffset requestedAt) : IVerifyNow
    {
        public DateTimeOffset RequestedAt => requestedAt;
        public List<long> Asked { get; } = [];
        public int MaxInstances => 200;

        public Task<VerifyNowAnswer> RequestAsync(System.Security.Claims.ClaimsPrincipal user, IReadOnlyList<long> instanceIds,
            string scope, CancellationToken cancellationToken)
        {
            Asked.AddRange(instanceIds);
            return Task.FromResult(new VerifyNowAnswer(requestedAt, instanceIds.Count, null, "Polling now."));
        }
    }

    [Fact]
    public async Task Verify_now_says_verifying_until_a_poll_finishing_after_the_request_lands_then_what_it_found()
    {
        var current = Details.SqlFin01();
        var id = current.Assessment.Registration.Id;
        var verify = new AcceptingVerifyNow(InstanceSpec.Now.AddMinutes(1));
        Services.AddSingleton<IVerifyNow>(verify);
        AddAuthorization().SetAuthorized("ops@bank.test").SetRoles(DashboardRoles.Operator);
        RenderInteractively();
        var page = RenderWith(new FakeDetails((_, _) => Task.FromResult<InstanceDetail?>(current)), id);

        page.Find("[data-verify-button]").Click();
        page.WaitForAssertion(() => Assert.Equal("verifying…", page.Find("[data-verifying]").TextContent));
        // A poll under way when the request came lands first: it finished before the request, so it is not the result.
        current = current with { Assessment = current.Assessment with { State = current.Assessment.State with { LastPollAt = verify.RequestedAt.AddSeconds(-1) } } };
        await _assessments.LandAsync(FleetAssessment.Empty(InstanceSpec.Now));
        page.WaitForAssertion(() => Assert.NotNull(page.Find("[data-verifying]")));
        current = current with { Assessment = current.Assessment with { State = current.Assessment.State with { LastPollAt = verify.RequestedAt.AddSeconds(2) } } };
        await _assessments.LandAsync(FleetAssessment.Empty(InstanceSpec.Now));

        page.WaitForAssertion(() => Assert.StartsWith($"Polled at {InstanceFormat.Time(verify.RequestedAt.AddSeconds(2))} UTC: Non-compliant",
            page.Find("[data-verified]").TextContent, StringComparison.Ordinal));
        Assert.Empty(page.FindAll("[data-verifying]"));
        Assert.Equal([id], verify.Asked);
    }

    [Fact]
    public void Verify_now_is_not_offered_to_a_viewer()
    {
        AddAuthorization().SetAuthorized("viewer@bank.test").SetRoles(DashboardRoles.Viewer);
        RenderInteractively();
        var page = RenderDetail(Details.SqlFin01());

        Assert.Empty(page.FindAll("[data-verify-now]"));
    }
}
