using System.Net;
using IfiDashboard.Client.Pages;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// The alert settings form on /alerts/settings, against the real SMTP server: an Administrator's change applies from
/// the next evaluation without a restart; an Operator's post is refused with the store unchanged.
/// </summary>
public sealed class AlertSettingsTests
{
    const string Name = "sql-prod-01";

    [Fact]
    public async Task An_administrators_interval_and_rule_switch_apply_from_the_next_evaluation_and_an_operator_is_refused()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(new ScenarioInstance { Name = Name, Profile = "2019", IfiEnabled = true });
        await using var host = bed.StartHost(smtp);
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        bed.Fleet.Update(Name, i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();
        Assert.Single(await smtp.WaitForAsync(1));
        var admin = host.CreateClient();

        // Configured: a reminder every 4 h. Set to 1 h here, it comes after 1 h.
        var saved = await EditingPagesTests.SubmitAsync(admin, "/alerts/settings", "alert-settings", new() { [AlertSettingsForm.RenotifyField] = "1" });
        bed.Clock.Advance(TimeSpan.FromHours(1));
        await host.PollAndAssessAsync();
        var reminder = (await smtp.WaitForAsync(2))[1];

        Assert.Contains("Alert settings saved", saved.Message, StringComparison.Ordinal);
        Assert.Equal($"[IFI] Still: IFI off on {Name} (Production)", reminder.Subject);
        Assert.Equal("every 1 h 0 min while a problem lasts", (await host.Services.GetRequiredService<IAlertsView>().SettingsAsync(CancellationToken.None)).Renotify);

        // The NonCompliant rule switched off: the episode ends, no reminder and no recovery mail.
        // As a browser posts a form with that box unticked: without the field.
        using var switchedOff = await admin.PostAsync("/alerts/settings", new FormUrlEncodedContent(new Dictionary<string, string>
        {
            ["_handler"] = "alert-settings", ["__RequestVerificationToken"] = await TestSignIn.FormTokenAsync(admin),
            [AlertSettingsForm.Field("Unknown")] = "true", [AlertSettingsForm.Field("WaiverExpiring")] = "true",
            [AlertSettingsForm.Field("Recovery")] = "true", [AlertSettingsForm.RenotifyField] = "1",
        }));
        Assert.True(switchedOff.IsSuccessStatusCode);
        // Nothing of the last hour's evaluation still running when the clock moves on: it would read the settings
        // before the switch and decide at the later time.
        await host.SettleAsync();
        bed.Clock.Advance(TimeSpan.FromHours(2));
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        Assert.Equal(2, smtp.Messages().Count);
        var audit = await host.Services.GetRequiredService<AuditLog>().QueryAsync(new AuditFilter(Action: AuditActions.AlertSettingsSaved), null, 10, CancellationToken.None);
        Assert.Equal(2, audit.Count);
        Assert.All(audit, e => Assert.Equal(TestSignIn.UserName(DashboardRoles.Administrator), e.Actor));
        Assert.Contains("\"Rules:NonCompliant\":\"false\"", audit[0].After, StringComparison.Ordinal);

        // Last, once the clock has stopped moving: a store dump assesses anew, which wakes an evaluation in the
        // background, and one running while the clock moved on would decide at the later time.
        var operatorClient = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Operator);
        var before = await StoreDump.AllTextAsync(host.Services);
        using var refused = await operatorClient.PostAsync("/alerts/settings", new FormUrlEncodedContent(new Dictionary<string, string>
        {
            ["_handler"] = "alert-settings", ["__RequestVerificationToken"] = await TestSignIn.FormTokenAsync(operatorClient),
            [AlertSettingsForm.RenotifyField] = "0",
        }));
        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
    }
}
