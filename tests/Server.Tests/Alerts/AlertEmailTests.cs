using IfiDashboard.Store.Alerts;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// The whole path against a real SMTP server on loopback: a simulated instance loses IFI, the collector polls it,
/// the fleet is reassessed, the rules decide, the outbox delivers.
/// </summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class AlertEmailTests
{
    const string Name = "sql-prod-01";

    /// <summary>Registers the fleet, polls it once while IFI is on, then takes IFI away and polls again.</summary>
    static async Task PollHealthyThenLoseIfiAsync(AlertsTestBed bed, AlertsHost host)
    {
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        bed.Fleet.Update(Name, i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();
    }

    static ScenarioInstance Instance() => new() { Name = Name, Profile = "2019", IfiEnabled = true };

    [Fact]
    public async Task Losing_ifi_sends_exactly_one_email_naming_status_explanation_since_time_lost_steps_and_link()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp);
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        Assert.Empty(smtp.Messages());

        // IFI is lost at a restart (the privilege is read at start): the mail dates the state from it.
        var restart = bed.Clock.GetUtcNow().AddMinutes(-3);
        bed.Fleet.Update(Name, i => { i.IfiEnabled = false; i.LastStartupTime = restart; });
        await host.PollAndAssessAsync();

        var mail = Assert.Single(await smtp.WaitForAsync(1));
        Assert.Equal([AlertsHost.ProdTeam], mail.RcptTos);
        Assert.Equal(AlertsHost.From, mail.MailFrom);
        Assert.Equal($"[IFI] IFI off on {Name} (Production)", mail.Subject);
        Assert.Equal("multipart/alternative", mail.ContentType);
        Assert.Empty(mail.Defects);
        var link = $"https://ifi.example.test/instances/{host.IdOf(Name)}";
        foreach (var body in new[] { mail.Text!, mail.Html! })
        {
            Assert.Contains("IFI is off but the default policy requires it", body, StringComparison.Ordinal);
            Assert.Contains("NonCompliant", body, StringComparison.Ordinal);
            Assert.Contains("first seen by IfiDashboard", body, StringComparison.Ordinal);
            Assert.Contains($"{IfiDashboard.Compliance.ComplianceFormat.Moment(restart.ToUniversalTime())}, the service start", body, StringComparison.Ordinal);
            Assert.Contains("Time lost, last 30 days", body, StringComparison.Ordinal);
            Assert.Contains("Perform volume maintenance tasks", body, StringComparison.Ordinal);
            Assert.Contains(link, body, StringComparison.Ordinal);
        }
        Assert.Contains($"<a href=\"{link}\">", mail.Html, StringComparison.Ordinal);

        // More polls and evaluations of the same problem: still one message.
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        await host.SettleAsync();
        Assert.Single(smtp.Messages());
        var row = Assert.Single(await host.OutboxAsync());
        Assert.Equal(OutboxStatus.Sent, row.Status);
        Assert.Equal(1, row.Attempts);
    }

    [Fact]
    public async Task Getting_ifi_back_sends_one_recovery_email()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp);
        await PollHealthyThenLoseIfiAsync(bed, host);
        await smtp.WaitForAsync(1);

        bed.Fleet.Update(Name, i => i.IfiEnabled = true);
        await host.PollAndAssessAsync();

        var messages = await smtp.WaitForAsync(2);
        var recovery = messages[1];
        Assert.Equal($"[IFI] Resolved: {Name} (Production) is compliant again", recovery.Subject);
        Assert.Equal([AlertsHost.ProdTeam], recovery.RcptTos);
        Assert.Contains("IFI is on, as the default policy requires", recovery.Text, StringComparison.Ordinal);
        Assert.DoesNotContain("What to do", recovery.Text, StringComparison.Ordinal);
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        Assert.Equal(2, smtp.Messages().Count);
    }

    [Fact]
    public async Task A_lasting_problem_is_notified_again_after_the_interval_and_not_before()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp);
        await PollHealthyThenLoseIfiAsync(bed, host);
        await smtp.WaitForAsync(1);

        bed.Clock.Advance(TimeSpan.FromHours(3));
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        Assert.Single(smtp.Messages());

        bed.Clock.Advance(TimeSpan.FromHours(1));
        await host.PollAndAssessAsync();

        var reminder = (await smtp.WaitForAsync(2))[1];
        Assert.Equal($"[IFI] Still: IFI off on {Name} (Production)", reminder.Subject);
        await host.SettleAsync();
        Assert.Equal(2, smtp.Messages().Count);
    }

    [Fact]
    public async Task Relay_down_then_up_across_a_restart_delivers_the_alert_once_late_not_lost_not_doubled()
    {
        await using var smtp = SmtpSink.Create(SinkMode.None);
        await using var bed = AlertsTestBed.Create(Instance());
        await using (var first = bed.StartHost(smtp))
        {
            await PollHealthyThenLoseIfiAsync(bed, first);

            var failed = await Eventually.WaitAsync(first.OutboxAsync, rows => rows.Count == 1 && rows[0].Attempts >= 1);
            var row = Assert.Single(failed);
            Assert.Equal(OutboxStatus.Pending, row.Status);
            Assert.Contains("connection refused", row.LastError, StringComparison.Ordinal);
            Assert.Contains("Alerts:Smtp:Host", row.LastError, StringComparison.Ordinal);
            Assert.True(row.NextAttemptAt > bed.Clock.GetUtcNow());
        }

        await smtp.StartAsync();
        bed.Clock.Advance(TimeSpan.FromMinutes(1));
        await using var second = bed.StartHost(smtp);

        var mail = Assert.Single(await smtp.WaitForAsync(1));
        Assert.Equal($"[IFI] IFI off on {Name} (Production)", mail.Subject);
        await second.PollAndAssessAsync();
        await second.SettleAsync();
        Assert.Single(smtp.Messages());
        var sent = Assert.Single(await second.OutboxAsync());
        Assert.Equal(OutboxStatus.Sent, sent.Status);
        Assert.Equal(2, sent.Attempts);
        Assert.True(sent.SentAt > sent.CreatedAt);
    }
}
