using IfiDashboard.Client.Pages.Changes;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Client.Tests;

public sealed class ChangesPageTests : ComponentTest
{
    static readonly DateTimeOffset Now = InstanceSpec.Now;

    /// <summary>A timeline source answering what <see cref="TimelineBuilder"/> makes of the given polls, or failing.</summary>
    sealed class FakeTimeline(Func<IReadOnlyList<TimelineChange>> changes) : IFleetTimeline
    {
        public DateTimeOffset? AskedSince { get; private set; }

        public Task<IReadOnlyList<TimelineChange>> ReadAsync(DateTimeOffset since, CancellationToken cancellationToken)
        {
            AskedSince = since;
            return Task.FromResult<IReadOnlyList<TimelineChange>>(changes().Where(c => c.SeenAt >= since).OrderByDescending(c => c.SeenAt).ToList());
        }
    }

    static PollObservation Poll(DateTimeOffset at, IfiState ifi, DateTimeOffset started, string account = @"NT Service\MSSQLSERVER") =>
        new() { SnapshotId = Guid.NewGuid(), PolledAt = at, Ifi = ifi, ServiceStartedAt = started, ServiceAccount = account };

    /// <summary>SQLFIN01 (Production, pci) lost IFI at a restart 2 days ago; SQLDEV01 (Development) gained it 20 days ago
    /// with a new service account; SQLHR01 (Test) restarted an hour ago.</summary>
    static IReadOnlyList<TimelineChange> History() =>
    [
        .. TimelineBuilder.Build(1, [Poll(Now.AddDays(-3), IfiState.Enabled, Now.AddDays(-40)), Poll(Now.AddDays(-2), IfiState.Disabled, Now.AddDays(-2).AddMinutes(-5))]),
        .. TimelineBuilder.Build(8, [Poll(Now.AddDays(-21), IfiState.Disabled, Now.AddDays(-50)), Poll(Now.AddDays(-20), IfiState.Enabled, Now.AddDays(-20).AddMinutes(-5), @"CORP\svc-sql")]),
        .. TimelineBuilder.Build(3, [Poll(Now.AddDays(-1), IfiState.Disabled, Now.AddDays(-30)), Poll(Now.AddHours(-1), IfiState.Disabled, Now.AddHours(-2))]),
    ];

    FakeTimeline _timeline = new(History);

    RenderedPage RenderAt(string query)
    {
        Services.AddSingleton<IFleetAssessments>(FakeAssessments.Of(Fleets.Of(Fleets.Mixed())));
        Services.AddSingleton<IFleetTimeline>(_timeline);
        Services.AddSingleton<TimeProvider>(new FakeTimeProvider(Now));
        NavigateTo("changes" + query);
        return Render<ChangesPage>();
    }

    static List<(string?, string?)> Rows(RenderedPage page) =>
        page.FindAll("tr[data-change-row]").Select(r => (r.GetAttribute("data-instance"), r.GetAttribute("data-kind"))).ToList();

    [Fact]
    public void The_last_week_is_listed_newest_first_with_the_sentence_a_dba_reads_and_a_link_to_the_instance()
    {
        var page = RenderAt("");

        Assert.Equal([("SQLHR01", "restart"), ("SQLFIN01", "restart"), ("SQLFIN01", "ifi-lost")], Rows(page));
        Assert.Equal("IFI lost after the restart on 6 May 2025", page.Find("tr[data-kind=ifi-lost] td.message").TextContent);
        Assert.Equal("instances/1", page.Find("tr[data-kind=ifi-lost] a").GetAttribute("href"));
        Assert.Equal(Now.AddDays(-7), _timeline.AskedSince);
        Assert.Contains("3 changes in the last 7 days: IFI lost 1, Restart 2.", page.Find("[data-changes-summary]").TextContent, StringComparison.Ordinal);
    }

    // Issue 29: IFI lost is the fix where the policy forbids IFI; a red badge there told the DBA the opposite.
    [Theory]
    [InlineData(1, "ifi-lost", "st-bad")]    // SQLFIN01: IFI required
    [InlineData(7, "ifi-lost", "st-ok")]     // SQLPCI01: IFI forbidden
    [InlineData(7, "ifi-gained", "st-bad")]
    [InlineData(6, "ifi-lost", "st-na")]     // AZDB01: not applicable
    public void An_ifi_change_is_coloured_by_what_the_policy_wants_there(long instanceId, string kind, string css)
    {
        var (before, after) = kind == "ifi-lost" ? (IfiState.Enabled, IfiState.Disabled) : (IfiState.Disabled, IfiState.Enabled);
        _timeline = new(() => TimelineBuilder.Build(instanceId,
            [Poll(Now.AddDays(-3), before, Now.AddDays(-40)), Poll(Now.AddDays(-2), after, Now.AddDays(-40))]));

        var page = RenderAt("");

        Assert.Contains(css, page.Find($"tr[data-kind={kind}] .badge").ClassList);
    }

    [Fact]
    public void A_longer_window_reaches_older_changes()
    {
        var page = RenderAt("?days=30");

        Assert.Contains(("SQLDEV01", "ifi-gained"), Rows(page));
        Assert.Contains(("SQLDEV01", "account"), Rows(page));
        Assert.Equal("30", page.Find("select[name=days] option[selected]").GetAttribute("value"));
    }

    [Theory]
    [InlineData("?days=30&env=Development", new[] { "SQLDEV01" })]
    [InlineData("?days=30&tag=pci", new[] { "SQLFIN01" })]
    [InlineData("?days=30&env=test", new[] { "SQLHR01" })]
    public void Environment_and_tag_filters_keep_the_instances_they_match(string query, string[] instances)
    {
        var page = RenderAt(query);

        Assert.Equal(instances, Rows(page).Select(r => r.Item1).Distinct().ToArray());
    }

    [Fact]
    public void The_kind_filter_keeps_one_kind()
    {
        var lost = RenderAt("?days=30&kind=ifi-lost");
        Assert.Equal([("SQLFIN01", "ifi-lost")], Rows(lost));
        Assert.Equal("ifi-lost", lost.Find("select[name=kind] option[selected]").GetAttribute("value"));
    }

    [Fact]
    public void A_window_without_changes_says_what_would_show()
    {
        _timeline = new FakeTimeline(() => []);
        var empty = RenderAt("?days=1");
        Assert.NotNull(empty.Find("[data-changes-empty]"));
        Assert.Empty(empty.FindAll("table"));
    }

    [Fact]
    public void A_failing_read_is_reported_as_an_alert()
    {
        _timeline = new FakeTimeline(() => throw new InvalidOperationException("store unavailable"));

        var page = RenderAt("");

        AssertReportedWithTraceId(page.Find("[role=alert]").TextContent, "store unavailable");
    }
}
