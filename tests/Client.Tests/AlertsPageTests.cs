using IfiDashboard.Client.Pages;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Alerts;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests;

public sealed class AlertsPageTests : ComponentTest
{
    static AlertSettingsSummary Settings(bool enabled, IReadOnlyList<string> defaultTo, IReadOnlyList<AlertRouteSummary>? routes = null) =>
        new(enabled, null, enabled ? "relay.corp.example" : "", 587, "StartTls", "ifi@corp.example", null, false, [],
            routes ?? [], defaultTo, "never", "off", "up to 10 attempts");

    RenderedPage RenderWith(AlertSettingsSummary settings)
    {
        Services.AddSingleton<IFleetAssessments>(FakeAssessments.Of(FleetAssessment.Empty(InstanceSpec.Now)));
        Services.AddSingleton<IAlertsView>(new FakeAlertsView(settings));
        Services.AddSingleton<IAlertSilences>(new FakeSilences([]));
        return Render<AlertsPage>();
    }

    [Fact]
    public void Silences_in_force_are_listed_and_a_silenced_alert_says_by_whom_until_when_and_why_it_was_not_sent()
    {
        var silence = new AlertSilence
        {
            Id = 4, Kind = SilenceKind.Snooze, InstanceId = 1, Reason = "CHG-9 patch night", CreatedBy = "alice",
            CreatedAt = InstanceSpec.Now.AddHours(-1), ExpiresAt = new DateTimeOffset(2026, 6, 1, 4, 0, 0, TimeSpan.Zero),
        };
        var silenced = new AlertHistoryItem(10, InstanceSpec.Now, "Opened", "NonCompliant", 1, "SQLFIN01", "[IFI] IFI off on SQLFIN01 (Production)",
            ["dba@corp.example"], "Silenced", 0, null, null, null, silence);
        var resolved = silenced with { Id = 11, Kind = "Resolved", Status = "Sent", SilencedBy = null };
        Services.AddSingleton<IFleetAssessments>(FakeAssessments.Of(FleetAssessment.Empty(InstanceSpec.Now)));
        Services.AddSingleton<IAlertsView>(new FakeAlertsView(Settings(enabled: true, ["dba@corp.example"]), [silenced, resolved]));
        Services.AddSingleton<IAlertSilences>(new FakeSilences([new SilenceView(silence, "instance SQLFIN01")]));

        var page = Render<AlertsPage>();
        page.WaitForAssertion(() => Assert.NotNull(page.Find("tr[data-outbox='10']")));

        Assert.Contains("CHG-9 patch night", page.Find("tr[data-silence='4']").TextContent, StringComparison.Ordinal);
        Assert.Equal("not sent: snooze by alice until 2026-06-01 04:00:00: CHG-9 patch night", page.Find("tr[data-outbox='10'] .delivery").TextContent);
        Assert.Equal("alerts/silences?instance=1", page.Find("tr[data-outbox='10'] a[data-silence-link]").GetAttribute("href"));
        Assert.Empty(page.FindAll("tr[data-outbox='11'] a[data-silence-link]"));
    }

    [Fact]
    public void Alerts_switched_off_say_so_and_name_the_settings_that_turn_them_on()
    {
        var text = RenderWith(Settings(enabled: false, ["dba@corp.example"])).Find("[data-alerts-off]").TextContent;

        Assert.StartsWith("Alerts are off", text, StringComparison.Ordinal);
        foreach (var setting in new[] { "Alerts:Enabled=true", "Alerts:Smtp:Host", "Alerts:DefaultTo", "Alerts:Webhooks" })
            Assert.Contains(setting, text, StringComparison.Ordinal);
    }

    [Fact]
    public void Alerts_on_without_a_recipient_say_they_go_to_nobody()
    {
        var text = RenderWith(Settings(enabled: true, [])).Find("[data-alerts-off]").TextContent;

        Assert.StartsWith("Alerts are on but go to nobody", text, StringComparison.Ordinal);
        Assert.Contains("Alerts:DefaultTo", text, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("dba@corp.example", null)]
    [InlineData(null, "webhook:dba-teams")]
    public void Alerts_on_with_a_recipient_carry_no_warning(string? defaultTo, string? routeTo)
    {
        var page = RenderWith(Settings(enabled: true, defaultTo is null ? [] : [defaultTo],
            routeTo is null ? null : [new AlertRouteSummary(1, "environment Production", [routeTo])]));

        Assert.Equal("No alert has been sent yet.", page.Find("[data-history-empty]").TextContent);
        Assert.Empty(page.FindAll("[data-alerts-off]"));
    }
}
