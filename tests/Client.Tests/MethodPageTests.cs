using IfiDashboard.Client.Pages.Method;
using IfiDashboard.Client.Pages.Overview;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Client.Tests.TestData;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests;

/// <summary>docs/compliance.md served inside the dashboard, and every figure of the overview linking into it.</summary>
public sealed class MethodPageTests : ComponentTest
{
    static readonly string Markdown = File.ReadAllText(Path.Combine(RepositoryRoot(), "docs", "compliance.md"));

    static string RepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "IfiDashboard.sln")))
            directory = directory.Parent;
        return directory?.FullName ?? throw new InvalidOperationException("The repository root was not found above the test's binaries.");
    }

    [Fact]
    public void Every_second_level_heading_of_the_file_is_a_topic_in_its_order()
    {
        var headings = Markdown.Split('\n').Where(l => l.StartsWith("## ", StringComparison.Ordinal))
            .Select(l => l[3..].Split(" — ")[0].Trim()).ToList();

        Assert.Equal(headings, MethodDocument.Topics.Select(t => t.Title));
        Assert.Contains(MethodDocument.Topics, t => t.Slug == "time-lost-to-zeroing");
        Assert.Contains("Compliance: how every status and number is computed", MethodDocument.IntroductionHtml, StringComparison.Ordinal);
    }

    [Fact]
    public void The_topics_the_pages_link_to_exist()
    {
        foreach (var topic in new[] { MethodDocument.TimeLost, MethodDocument.RestoreRisk, MethodDocument.Summaries,
                     MethodDocument.Status, MethodDocument.FixFirst })
            Assert.NotNull(MethodDocument.Find(topic));
    }

    [Fact]
    public void The_whole_method_renders_every_topic_with_its_tables_and_code()
    {
        NavigateTo("method");
        var page = Render<MethodPage>();

        var article = page.Find("article.method-doc");
        Assert.Equal("all", article.GetAttribute("data-method"));
        Assert.Equal("Compliance: how every status and number is computed", article.QuerySelector("h1")!.TextContent);
        Assert.Equal(MethodDocument.Topics.Count, article.QuerySelectorAll("h2").Length);
        Assert.Equal("restore-risk--compliancerestore", article.QuerySelectorAll("h2")[6].Id);
        // The status table and the worked example's figures, as the file has them.
        Assert.Contains(article.QuerySelectorAll("table"), t => t.TextContent.Contains("desired \\ observed", StringComparison.Ordinal));
        Assert.Contains("1,556.48 s", article.TextContent, StringComparison.Ordinal);
        Assert.Contains("ComplianceEvaluator.Evaluate", article.QuerySelector("pre code")!.TextContent, StringComparison.Ordinal);
        Assert.Equal("0", article.QuerySelector("pre")!.GetAttribute("tabindex")); // it may scroll: a keyboard reaches it
        Assert.Equal(MethodDocument.Topics.Count, page.FindAll("nav.method-topics a").Count);
    }

    [Fact]
    public void A_topic_has_a_page_of_its_own_headed_by_its_title()
    {
        NavigateTo("method/restore-risk");
        var page = Render<MethodPage>(p => p.Add(m => m.Topic, "restore-risk"));

        var article = page.Find("article.method-doc");
        Assert.Equal("restore-risk", article.GetAttribute("data-method"));
        Assert.StartsWith("Restore risk", article.QuerySelector("h1")!.TextContent, StringComparison.Ordinal);
        Assert.Equal("-1", article.QuerySelector("h1")!.GetAttribute("tabindex"));
        Assert.Empty(article.QuerySelectorAll("h2"));
        Assert.DoesNotContain("Time lost to zeroing", article.TextContent, StringComparison.Ordinal);
        Assert.Equal("page", page.Find("nav.method-topics a[href='method/restore-risk']").GetAttribute("aria-current"));
    }

    [Fact]
    public void An_unknown_topic_says_so()
    {
        var page = Render<MethodPage>(p => p.Add(m => m.Topic, "no-such-topic"));

        Assert.Contains("no topic 'no-such-topic'", page.Find("[data-not-found]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Links_inside_the_file_lead_to_their_topic_and_links_to_other_files_keep_their_text()
    {
        var html = string.Concat(MethodDocument.Topics.Select(t => t.Html));
        var document = new AngleSharp.Html.Parser.HtmlParser().ParseDocument(html);

        // "[restore risk](#restore-risk--compliancerestore)" in "What to fix first"; "[sqlserver-reference.md](...)" in "Status".
        var links = document.QuerySelectorAll("a").Select(a => a.GetAttribute("href")!).ToList();
        Assert.Contains("method/restore-risk#restore-risk--compliancerestore", links);
        Assert.All(links, href => Assert.True(href.StartsWith("method/", StringComparison.Ordinal) || href.StartsWith("https://", StringComparison.Ordinal), href));
        foreach (var href in links.Where(h => h.StartsWith("method/", StringComparison.Ordinal)))
        {
            var (topic, id) = (href["method/".Length..].Split('#')[0], href.Split('#').ElementAtOrDefault(1));
            var section = MethodDocument.Find(topic);
            Assert.NotNull(section);
            if (id is not null) Assert.Contains($"id=\"{id}\"", section.Html, StringComparison.Ordinal);
        }
        Assert.Contains("sqlserver-reference.md", document.Body!.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Raw_html_in_the_file_is_shown_as_text_and_nothing_inline_is_emitted()
    {
        var rendered = MethodDocument.Render("# Title\n\n<script>alert(1)</script> <b onclick=\"x()\">b</b>\n\n## One — `Code`\n\n| a | b |\n|--:|---|\n| 1 | 2 |\n");

        var html = rendered.IntroductionHtml + rendered.Topics[0].Html;
        Assert.Contains("&lt;script&gt;", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<script", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("onclick=\"", html, StringComparison.Ordinal);
        Assert.Equal(("one", "One"), (rendered.Topics[0].Slug, rendered.Topics[0].Title));
        // The whole method under the dashboard's CSP (style-src 'self'): no style attribute, no script.
        var all = MethodDocument.IntroductionHtml + string.Concat(MethodDocument.Topics.Select(t => t.Html + t.PageHtml));
        Assert.DoesNotContain("style=", all, StringComparison.Ordinal);
        Assert.DoesNotContain("<script", all, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_figure_of_the_overview_links_to_its_method_topic()
    {
        Services.AddSingleton<IfiDashboard.Compliance.Assessment.IFleetAssessments>(FakeAssessments.Of(Fleets.Of(Fleets.Mixed())));
        var page = Render<OverviewPage>();

        string[] Topics(string selector) =>
            page.FindAll($"{selector} [data-method-link], {selector}[data-method-link]").Select(a => a.GetAttribute("data-method-link")!).Distinct().ToArray();
        Assert.Contains(MethodDocument.Summaries, Topics("[data-count=compliance-percent]"));
        Assert.Contains(MethodDocument.Status, Topics("p.method"));
        Assert.Contains(MethodDocument.TimeLost, Topics("section[aria-labelledby=h-lost]"));
        Assert.Equal([MethodDocument.FixFirst, MethodDocument.TimeLost, MethodDocument.RestoreRisk], Topics("section[aria-labelledby=h-fix-first]"));
        Assert.Contains(MethodDocument.TimeLost, Topics("section[aria-labelledby=h-business-case]"));
        foreach (var kind in new[] { "desired", "environment", "owner", "version" })
            Assert.Contains(MethodDocument.Summaries, Topics($"[data-breakdown-panel={kind}]"));
        Assert.Contains(MethodDocument.Summaries, Topics("section[aria-labelledby=h-trend]"));
        Assert.All(page.FindAll("[data-method-link]"), a =>
        {
            Assert.NotNull(MethodDocument.Find(a.GetAttribute("data-method-link")));
            Assert.Equal(MethodDocument.Href(a.GetAttribute("data-method-link")!), a.GetAttribute("href"));
        });
    }
}
