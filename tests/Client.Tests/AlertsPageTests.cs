using IfiDashboard.Client.Pages;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Shared.Dashboard;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests;

public sealed class AlertsPageTests : ComponentTest
{
    sealed class SettingsOnly(AlertSettingsSummary settings) : IAlertsView
    {
        public Task<IReadOnlyList<AlertHistoryItem>> RecentAsync(int count, CancellationToken ct) => Task.FromResult<IReadOnlyList<AlertHistoryItem>>([]);
        public AlertSettingsSummary Settings() => settings;
        public Task<TestEmailOutcome> SendTestAsync(string to, CancellationToken ct) => throw new NotSupportedException();
    }

    static AlertSettingsSummary Settings(bool enabled, IReadOnlyList<string> defaultTo, IReadOnlyList<AlertRouteSummary>? routes = null) =>
        new(enabled, null, enabled ? "relay.corp.example" : "", 587, "StartTls", "ifi@corp.example", null, false, [],
            routes ?? [], defaultTo, "never", "off", "up to 10 attempts");

    RenderedPage RenderWith(AlertSettingsSummary settings)
    {
        Services.AddSingleton<IFleetAssessments>(FakeAssessments.Of(FleetAssessment.Empty(InstanceSpec.Now)));
        Services.AddSingleton<IAlertsView>(new SettingsOnly(settings));
        return Render<AlertsPage>();
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

        Assert.Equal("No alert has been sent yet.", page.Find(".empty").TextContent);
        Assert.Empty(page.FindAll("[data-alerts-off]"));
    }
}
