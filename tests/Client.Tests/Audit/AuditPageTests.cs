using IfiDashboard.Client.Pages.Audit;
using IfiDashboard.Client.Tests.Rendering;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests.Audit;

public sealed class AuditPageTests : ComponentTest
{
    static readonly DateTimeOffset At = new(2026, 5, 3, 8, 12, 40, TimeSpan.Zero);

    sealed class FakeAuditView(AuditPageData page) : IAuditView
    {
        public AuditQuery? Asked { get; private set; }

        public Task<AuditPageData> ReadAsync(AuditQuery query, CancellationToken ct)
        {
            Asked = query;
            return Task.FromResult(page);
        }
    }

    static AuditItem Item(long id, string actor, string action) =>
        new(id, At.AddMinutes(id), actor, "10.1.2.3", action, $"instance {id} (SQL0{id})", """{"host":"a"}""", """{"host":"b"}""");

    (RenderedPage Page, FakeAuditView View) RenderAt(string address, AuditPageData data)
    {
        var view = new FakeAuditView(data);
        Services.AddSingleton<IAuditView>(view);
        NavigateTo(address);
        return (Render<AuditPage>(), view);
    }

    [Fact]
    public void The_filters_in_the_address_are_what_the_page_asks_for_and_links_keep_them()
    {
        var (page, view) = RenderAt("audit?actor=alice&action=instance.updated&from=2026-05-01T00:00&to=2026-05-04T00:00&before=90",
            new AuditPageData([Item(7, "alice", "instance.updated"), Item(6, "alice", "instance.updated")], NextBefore: 6,
                ["instance.updated", "waiver.granted"], ["alice", "bob"]));

        Assert.Equal(new AuditQuery("alice", "instance.updated", new DateTimeOffset(2026, 5, 1, 0, 0, 0, TimeSpan.Zero),
            new DateTimeOffset(2026, 5, 4, 0, 0, 0, TimeSpan.Zero), 90, AuditPage.PageSize), view.Asked);
        Assert.Equal(["7", "6"], page.FindAll("tr[data-audit]").Select(r => r.GetAttribute("data-audit")!).ToArray());
        Assert.Equal("alice", page.Find("select[name=actor] option[selected]").GetAttribute("value"));
        Assert.Equal("2026-05-01T00:00", page.Find("input[name=from]").GetAttribute("value"));
        Assert.Equal("audit?actor=alice&action=instance.updated&from=2026-05-01T00%3A00&to=2026-05-04T00%3A00&before=6",
            page.Find("a[data-page=older]").GetAttribute("href"));
        Assert.Equal("audit.csv?actor=alice&action=instance.updated&from=2026-05-01T00%3A00&to=2026-05-04T00%3A00",
            page.Find("[data-export=audit-csv]").GetAttribute("href"));
    }

    [Fact]
    public void An_entry_shows_who_when_from_where_and_before_and_after()
    {
        var (page, _) = RenderAt("audit", new AuditPageData([Item(1, "cmdb (API key jjkbu8dg)", "instance.updated")], null, [], []));

        var cells = page.Find("tr[data-audit='1']").Children.Select(c => c.TextContent.Trim()).ToArray();
        Assert.Equal(["2026-05-03 08:13:40", "cmdb (API key jjkbu8dg)", "10.1.2.3", "instance.updated", "instance 1 (SQL01)"], cells[..5]);
        Assert.Contains("""{"host":"a"}""", cells[5], StringComparison.Ordinal);
        Assert.Contains("""{"host":"b"}""", cells[6], StringComparison.Ordinal);
        Assert.Empty(page.FindAll("a[data-page=older]"));
    }

    [Fact]
    public void A_time_that_is_not_one_is_left_out_and_said_so_and_no_match_says_so()
    {
        var (page, view) = RenderAt("audit?from=yesterday", new AuditPageData([], null, [], []));

        Assert.Null(view.Asked!.From);
        Assert.Contains("From is not a date and time", page.Find("p.error").TextContent, StringComparison.Ordinal);
        Assert.Equal("No audit entry matches.", page.Find("p.empty").TextContent);
    }
}
