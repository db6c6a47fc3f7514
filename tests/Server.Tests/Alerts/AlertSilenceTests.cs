using System.Net;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Alerts;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// Acknowledge, snooze and silence through the silences page's forms, against the real SMTP server: a silenced
/// instance sends nothing (its alerts recorded, marked silenced), alerting resumes when the silence ends, and only an
/// Operator or above may silence.
/// </summary>
public sealed class AlertSilenceTests
{
    const string Name = "sql-prod-01";

    static ScenarioInstance Instance() => new() { Name = Name, Profile = "2019", IfiEnabled = true };

    static string SilencesPage(AlertsHost host) => $"/alerts/silences?instance={host.IdOf(Name)}";

    static Task<IReadOnlyList<AlertSilence>> ActiveAsync(AlertsHost host) =>
        host.Services.GetRequiredService<AlertSilenceStore>().ListActiveAsync(CancellationToken.None);

    [Fact]
    public async Task A_snoozed_instance_sends_no_mail_and_the_reminder_goes_out_once_the_snooze_has_ended()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp);
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        var client = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Operator);

        var until = bed.Clock.GetUtcNow().AddHours(1);
        var snoozed = await EditingPagesTests.SubmitAsync(client, SilencesPage(host), "snooze", new()
        {
            ["Snooze.For"] = "until", ["Snooze.Until"] = until.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm", System.Globalization.CultureInfo.InvariantCulture),
            ["Snooze.Reason"] = "CHG-1234 storage migration tonight",
        });
        bed.Fleet.Update(Name, i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();
        await host.SettleAsync();

        Assert.Contains("Snoozed", snoozed.Page.QuerySelector("[data-form-message='ok']")?.TextContent, StringComparison.Ordinal);
        var silence = Assert.Single(await ActiveAsync(host));
        Assert.Equal((SilenceKind.Snooze, TestSignIn.UserName(DashboardRoles.Operator)), (silence.Kind, silence.CreatedBy));
        Assert.Empty(smtp.Messages());
        var recorded = Assert.Single(await host.OutboxAsync());
        Assert.Equal((OutboxStatus.Silenced, silence.Id, 0), (recorded.Status, recorded.SilenceId, recorded.Attempts));
        Assert.Equal($"[IFI] IFI off on {Name} (Production)", recorded.Subject);

        // Past the snooze's end, still before the re-notify interval (4 h): the schedule, not the expiry, says when.
        bed.Clock.Advance(TimeSpan.FromHours(1));
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        Assert.Empty(await ActiveAsync(host));
        Assert.Empty(smtp.Messages());

        bed.Clock.Advance(TimeSpan.FromHours(3));
        await host.PollAndAssessAsync();

        var reminder = Assert.Single(await smtp.WaitForAsync(1));
        Assert.Equal($"[IFI] Still: IFI off on {Name} (Production)", reminder.Subject);
        await host.SettleAsync();
        Assert.Single(smtp.Messages());
    }

    [Fact]
    public async Task An_acknowledgement_holds_back_reminders_and_ends_when_the_alert_resolves_so_the_next_problem_is_mailed()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp);
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        bed.Fleet.Update(Name, i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();
        var opened = Assert.Single(await smtp.WaitForAsync(1));
        var link = $"{AlertsHost.DashboardUrl}alerts/silences?instance={host.IdOf(Name)}";
        Assert.Contains($"Acknowledge or snooze: {link}", opened.Text, StringComparison.Ordinal);
        Assert.Contains($"<a href=\"{link}\">", opened.Html, StringComparison.Ordinal);

        // The mail's link is a page with a form: opening it changes nothing.
        var client = host.CreateClient();
        await client.GetStringAsync(SilencesPage(host));
        Assert.Empty(await ActiveAsync(host));
        await EditingPagesTests.SubmitAsync(client, SilencesPage(host), "acknowledge", new() { ["Acknowledge.Reason"] = "on it, INC-77" });
        bed.Clock.Advance(TimeSpan.FromHours(5));
        await host.PollAndAssessAsync();
        await host.SettleAsync();

        Assert.Single(smtp.Messages());
        Assert.Contains(await host.OutboxAsync(), r => r.Status == OutboxStatus.Silenced && r.Subject.StartsWith("[IFI] Still:", StringComparison.Ordinal));

        bed.Fleet.Update(Name, i => i.IfiEnabled = true);
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        Assert.Empty(await ActiveAsync(host));
        var audit = await host.Services.GetRequiredService<AuditLog>().QueryAsync(new AuditFilter(Action: AuditActions.AlertSilenceEnded), null, 10, CancellationToken.None);
        Assert.Contains("\"endedBy\":\"resolved\"", Assert.Single(audit).After, StringComparison.Ordinal);

        bed.Fleet.Update(Name, i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();
        var again = (await smtp.WaitForAsync(2))[1];
        Assert.Equal($"[IFI] IFI off on {Name} (Production)", again.Subject);
    }

    [Fact]
    public async Task A_viewer_is_refused_every_silence_form_with_the_store_unchanged_and_an_operator_can_end_a_silence()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp);
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        var path = SilencesPage(host);
        var operatorClient = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Operator);
        await EditingPagesTests.SubmitAsync(operatorClient, path, "silence", new()
        {
            ["Silence.Scope"] = "environment:Production", ["Silence.Reason"] = "patch night",
        });
        var silence = Assert.Single(await ActiveAsync(host));
        Assert.Equal(("Production", SilenceKind.Silence), (silence.Environment, silence.Kind));
        // The form's default end: this time tomorrow, at the top of the hour.
        Assert.InRange(silence.ExpiresAt, bed.Clock.GetUtcNow().AddHours(23), bed.Clock.GetUtcNow().AddDays(1));

        var viewer = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer);
        var token = await TestSignIn.FormTokenAsync(viewer);
        var forms = new Dictionary<string, Dictionary<string, string>>
        {
            ["snooze"] = new() { ["Snooze.InstanceId"] = host.IdOf(Name).ToString(System.Globalization.CultureInfo.InvariantCulture), ["Snooze.For"] = "1d", ["Snooze.Reason"] = "viewer" },
            ["silence"] = new() { ["Silence.Scope"] = "tag:anything", ["Silence.Until"] = "2099-01-01T00:00", ["Silence.Reason"] = "viewer" },
            ["acknowledge"] = new() { ["Acknowledge.InstanceId"] = "1", ["Acknowledge.Reason"] = "viewer" },
            ["end-silence"] = new() { ["End.SilenceId"] = silence.Id.ToString(System.Globalization.CultureInfo.InvariantCulture) },
        };
        foreach (var (form, fields) in forms)
        {
            var before = await StoreDump.AllTextAsync(host.Services);
            fields["_handler"] = form;
            fields["__RequestVerificationToken"] = token;
            using var response = await viewer.PostAsync(path, new FormUrlEncodedContent(fields));
            Assert.Equal((form, HttpStatusCode.Forbidden), (form, response.StatusCode));
            Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
        }

        var confirm = await EditingPagesTests.SubmitAsync(operatorClient, $"/alerts/silences?end={silence.Id}", "end-silence", []);
        Assert.Contains("Ended", confirm.Page.QuerySelector("[data-form-message='ok']")?.TextContent, StringComparison.Ordinal);
        Assert.Empty(await ActiveAsync(host));
        var audit = await host.Services.GetRequiredService<AuditLog>().QueryAsync(new AuditFilter(), null, 50, CancellationToken.None);
        Assert.Contains(audit, e => e.Action == AuditActions.AlertSilenced && e.Actor == TestSignIn.UserName(DashboardRoles.Operator));
        Assert.Contains(audit, e => e.Action == AuditActions.AlertSilenceEnded && e.Actor == TestSignIn.UserName(DashboardRoles.Operator));
    }

    /// <summary>
    /// One polled instance for the refused snoozes: a refused snooze stores no silence (each case checks), so each case
    /// finds the host as the one before left it.
    /// </summary>
    public sealed class RefusedSnoozeHost : IAsyncLifetime
    {
        SmtpSink? _smtp;
        AlertsTestBed? _bed;

        internal AlertsHost Host { get; private set; } = null!;

        public async Task InitializeAsync()
        {
            _smtp = await SmtpSink.StartAsync(SinkMode.None);
            _bed = AlertsTestBed.Create(Instance());
            Host = _bed.StartHost(_smtp);
            await Host.RegisterFleetAsync();
            await Host.PollAndAssessAsync();
        }

        public async Task DisposeAsync()
        {
            await Host.DisposeAsync();
            await _bed!.DisposeAsync();
            await _smtp!.DisposeAsync();
        }
    }

    public sealed class RefusedSnoozes(RefusedSnoozeHost shared) : IClassFixture<RefusedSnoozeHost>
    {
        [Theory]
        [InlineData("Snooze.Reason", "fine\u202Eevil", "Snooze.Reason")]
        [InlineData("Snooze.Reason", "", "Snooze.Reason")]
        [InlineData("Snooze.For", "until", "Snooze.Until")]
        public async Task A_snooze_breaking_a_rule_is_refused_next_to_its_field_and_nothing_is_stored(string field, string value, string errorField)
        {
            var host = shared.Host;
            var fields = new Dictionary<string, string> { ["Snooze.For"] = "1d", ["Snooze.Reason"] = "maintenance", ["Snooze.Until"] = "2099-01-01T00:00" };
            fields[field] = value;

            var refused = await EditingPagesTests.SubmitAsync(host.CreateClient(), SilencesPage(host), "snooze", fields);

            Assert.False(string.IsNullOrWhiteSpace(refused.Page.QuerySelector($"[data-error-for='{errorField}']")?.TextContent), refused.Message);
            Assert.Empty(await ActiveAsync(host));
        }
    }
}
