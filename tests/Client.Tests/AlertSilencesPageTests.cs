using System.Security.Claims;
using IfiDashboard.Client.Pages;
using IfiDashboard.Client.Tests.Editing;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Shared.Alerts;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests;

public sealed class AlertSilencesPageTests : ComponentTest
{
    static readonly DateTimeOffset Now = InstanceSpec.Now;

    static SilenceView Snooze(long id, string scope, SilenceKind kind = SilenceKind.Snooze) => new(new AlertSilence
    {
        Id = id, Kind = kind, InstanceId = 1, Reason = "CHG-1234 disk migration", CreatedBy = "alice", CreatedAt = Now.AddHours(-1),
        ExpiresAt = Now.AddHours(3),
    }, scope);

    RenderedPage RenderPage(FakeSilences silences, string at = "alerts/silences")
    {
        Services.AddEditingBasics();
        Services.AddSingleton<IAlertSilences>(silences);
        NavigateTo(at);
        return Render<AlertSilencesPage>();
    }

    [Fact]
    public void An_alerting_instance_is_offered_acknowledge_and_snooze_as_posted_forms_with_a_token()
    {
        var page = RenderPage(new FakeSilences([], new Dictionary<long, string[]> { [1] = ["NonCompliant"] }), "alerts/silences?instance=1");

        Assert.Contains("SQLFIN01", page.Find("[data-silence-instance='1'] h2").TextContent, StringComparison.Ordinal);
        Assert.Equal("NonCompliant", page.Find("[data-open-alerts]").GetAttribute("data-open-alerts"));
        foreach (var form in new[] { "acknowledge", "snooze" })
        {
            var element = page.Find($"form[data-form='{form}']");
            Assert.Equal("post", element.GetAttribute("method"));
            Assert.NotNull(element.QuerySelector("input[name='__RequestVerificationToken']"));
            Assert.Equal("1", element.QuerySelector("input[type='hidden'][name$='.InstanceId']")!.GetAttribute("value"));
        }
        Assert.Equal(["4h", "1d", "7d", "until"], page.FindAll("select[name='Snooze.For'] option").Select(o => o.GetAttribute("value")));
        Assert.Empty(page.FindAll("[data-nothing-alerting]"));
    }

    [Theory]
    [InlineData("alerts/silences?done=snoozed&silence=7", "Snoozed: no alert about environment Staging goes out")]
    // The scope comes from the silence in the store: words in the address are not shown.
    [InlineData("alerts/silences?done=snoozed&silence=7&scope=Call%20the%20helpdesk", "Snoozed: no alert about environment Staging goes out")]
    [InlineData("alerts/silences?done=silenced&silence=8&scope=Call%20the%20helpdesk", "Silenced: no alert about its scope goes out")]
    [InlineData("alerts/silences?done=ended&silence=7&scope=Call%20the%20helpdesk", "Ended: the alerts it held back go out again")]
    public void After_a_change_the_page_names_the_silence_from_the_store_never_from_the_address(string address, string expected)
    {
        var page = RenderPage(new FakeSilences([Snooze(7, "environment Staging")]), address);

        Assert.StartsWith(expected, page.Find("[data-form-message=ok]").TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("helpdesk", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public void An_instance_with_nothing_alerting_offers_only_the_snooze()
    {
        var page = RenderPage(new FakeSilences([]), "alerts/silences?instance=2");

        Assert.NotNull(page.Find("[data-nothing-alerting]"));
        Assert.Empty(page.FindAll("form[data-form='acknowledge']"));
        Assert.NotNull(page.Find("form[data-form='snooze']"));
    }

    [Fact]
    public void The_silence_form_offers_every_instance_environment_and_tag_of_the_fleet()
    {
        var page = RenderPage(new FakeSilences([]));

        var choices = page.FindAll("select[name='Silence.Scope'] option").Select(o => o.GetAttribute("value")).ToList();
        Assert.Contains("instance:1", choices);
        Assert.Contains("environment:Test", choices);
        Assert.Contains("tag:pci", choices);
        Assert.Equal(9 + 4 + 2 + 1, choices.Count);
    }

    [Fact]
    public void Silences_in_force_are_listed_with_who_why_until_and_an_end_link_that_asks_first()
    {
        var page = RenderPage(new FakeSilences([Snooze(5, "instance SQLFIN01"), Snooze(6, "instance SQLFIN01", SilenceKind.Acknowledgement)]),
            "alerts/silences?end=5");

        var row = page.Find("tr[data-silence='5']");
        Assert.Contains("instance SQLFIN01", row.TextContent, StringComparison.Ordinal);
        Assert.Contains("CHG-1234 disk migration", row.TextContent, StringComparison.Ordinal);
        Assert.Contains("alice", row.TextContent, StringComparison.Ordinal);
        Assert.Equal("alerts/silences?end=5#confirm-end", row.QuerySelector("a[data-end]")!.GetAttribute("href"));
        Assert.Contains("its alert resolves", page.Find("tr[data-silence='6']").TextContent, StringComparison.Ordinal);
        var confirm = page.Find("[data-confirm-end='5'] form[data-form='end-silence']");
        Assert.Equal("5", confirm.QuerySelector("input[name='End.SilenceId']")!.GetAttribute("value"));
    }

    [Fact]
    public void Ending_a_silence_no_longer_in_force_says_so()
    {
        var page = RenderPage(new FakeSilences([]), "alerts/silences?end=44");

        Assert.Contains("No silence #44 is in force", page.Find("[data-form-message='error']").TextContent, StringComparison.Ordinal);
        Assert.NotNull(page.Find("[data-silences-empty]"));
    }

    [Fact]
    public void A_snooze_for_a_period_asks_the_server_for_that_long_from_now()
    {
        var form = new SilenceForm { InstanceId = "3", For = "7d", Reason = "vendor upgrade" };
        var errors = new Components.Forms.FormErrors();

        var request = form.ToRequest(SilenceKind.Snooze, "Snooze", Now, errors);

        Assert.False(errors.Any);
        Assert.Equal(new SilenceRequest(SilenceKind.Snooze, 3, null, null, "vendor upgrade", Now.AddDays(7)), request);
    }

    [Theory]
    [InlineData("until", "tomorrow", "Snooze.Until")]
    [InlineData("forever", null, "Snooze.For")]
    public void A_snooze_whose_end_cannot_be_read_is_refused_next_to_its_field(string period, string? until, string field)
    {
        var errors = new Components.Forms.FormErrors();

        var request = new SilenceForm { InstanceId = "3", For = period, Until = until, Reason = "x" }.ToRequest(SilenceKind.Snooze, "Snooze", Now, errors);

        Assert.Null(request);
        Assert.NotNull(errors.For(field));
    }
}
