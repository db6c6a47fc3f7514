using System.Security.Claims;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages;
using IfiDashboard.Client.Tests.Editing;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests;

public sealed class AlertsSettingsPageTests : ComponentTest
{
    static readonly AlertSettingsSummary Summary = new(true, null, "relay.corp.example", 587, "StartTls", "ifi@corp.example", null, false,
        [new("NonCompliant", false, "IFI off where policy requires it"), new("Unknown", true, "IFI state unknown for 1 h 0 min or longer")],
        [], ["dba@corp.example"], "every 12 h 0 min while a problem lasts", "off", "up to 10 attempts",
        TimeSpan.FromHours(12), "alice", new DateTimeOffset(2026, 5, 1, 9, 30, 0, TimeSpan.Zero));

    RenderedPage RenderAs(string role)
    {
        Services.AddEditingBasics();
        Services.AddSingleton<IAlertsView>(new FakeAlertsView(Summary));
        var user = new ClaimsPrincipal(new ClaimsIdentity([new Claim(ClaimTypes.Name, "someone"), new Claim(ClaimTypes.Role, role)], "test"));
        return Render<AlertsSettingsPage>(p => p.AddCascadingValue<HttpContext>(new DefaultHttpContext { User = user }));
    }

    [Fact]
    public void An_administrator_gets_a_checkbox_per_rule_as_in_effect_and_the_interval_in_hours()
    {
        var page = RenderAs(DashboardRoles.Administrator);

        var form = page.Find("form[data-form='alert-settings']");
        Assert.NotNull(form.QuerySelector("input[name='__RequestVerificationToken']"));
        Assert.False(form.QuerySelector("input[name='Change.NonCompliant']")!.HasAttribute("checked"));
        Assert.True(form.QuerySelector("input[name='Change.Unknown']")!.HasAttribute("checked"));
        Assert.Equal("12", form.QuerySelector($"input[name='{AlertSettingsForm.RenotifyField}']")!.GetAttribute("value"));
        Assert.Contains("alice", page.Find("[data-settings-changed]").TextContent, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(DashboardRoles.Operator)]
    [InlineData(DashboardRoles.Viewer)]
    public void Operators_and_viewers_see_the_settings_read_only(string role)
    {
        var page = RenderAs(role);

        Assert.Empty(page.FindAll("form[data-form='alert-settings']"));
        Assert.Equal("no", page.Find("tr[data-rule='NonCompliant'] td").TextContent.Trim());
        Assert.NotNull(page.Find("[data-settings-readonly]"));
    }

    [Theory]
    [InlineData("0.5", 30)]
    [InlineData("0", 0)]
    [InlineData("24", 1440)]
    public void The_interval_is_read_as_hours(string hours, int minutes)
    {
        var change = new AlertSettingsForm { RenotifyHours = hours, Recovery = true }.ToChange(new FormErrors());

        Assert.Equal(new AlertSettingsChange(false, false, false, true, TimeSpan.FromMinutes(minutes)), change);
    }

    [Theory]
    [InlineData("")]
    [InlineData("-1")]
    [InlineData("a day")]
    public void An_interval_that_is_not_hours_is_refused_next_to_its_field(string hours)
    {
        var errors = new FormErrors();

        Assert.Null(new AlertSettingsForm { RenotifyHours = hours }.ToChange(errors));
        Assert.NotNull(errors.For(AlertSettingsForm.RenotifyField));
    }
}
