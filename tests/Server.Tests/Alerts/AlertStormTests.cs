using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// A sync or a patch night turns many instances at once: past the storm threshold, one recipient list gets one
/// grouped mail instead of a mail per instance, while a quiet list still gets its single alert.
/// </summary>
public sealed class AlertStormTests
{
    static ScenarioInstance Production(string name) => new() { Name = name, Profile = "2019", IfiEnabled = false };

    [Fact]
    public async Task More_alerts_than_the_threshold_for_one_list_arrive_as_one_grouped_mail_and_a_quiet_list_gets_its_own()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(
            Production("prod-a"), Production("prod-b"), Production("prod-c"), Production("prod-d"), Production("prod-e"),
            new ScenarioInstance { Name = "test-a", Profile = "2019", IfiEnabled = false, Inventory = new ScenarioInventory { Environment = "Test" } });
        await using var host = bed.StartHost(smtp, s =>
        {
            s["Alerts:Storm:Threshold"] = "3";
            s["Alerts:Rules:Unknown"] = "false";
        });
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();

        await host.SettleAsync();
        var mails = await smtp.WaitForAsync(2);
        var again = await host.EvaluateAsync();
        var outbox = await host.OutboxAsync();

        Assert.Equal(2, smtp.Messages().Count);
        var grouped = Assert.Single(mails, m => m.RcptTos.Contains(AlertsHost.ProdTeam));
        Assert.Contains("5 IFI alerts at once (5 opened)", grouped.Subject, StringComparison.Ordinal);
        foreach (var name in new[] { "prod-a", "prod-b", "prod-c", "prod-d", "prod-e" })
            Assert.Contains(name, grouped.Text, StringComparison.Ordinal);
        var single = Assert.Single(mails, m => m.RcptTos.Contains(AlertsHost.Everyone));
        Assert.Contains("test-a", single.Subject, StringComparison.Ordinal);
        Assert.Equal(0, again);
        Assert.Equal([AlertNoticeKind.Opened, AlertNoticeKind.Grouped], outbox.Select(r => r.Kind).Order());
    }

    [Fact]
    public async Task Up_to_the_threshold_every_alert_is_a_mail_of_its_own()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(Production("prod-a"), Production("prod-b"), Production("prod-c"));
        await using var host = bed.StartHost(smtp, s =>
        {
            s["Alerts:Storm:Threshold"] = "3";
            s["Alerts:Rules:Unknown"] = "false";
        });
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();

        await host.SettleAsync();
        var mails = await smtp.WaitForAsync(3);

        Assert.Equal(3, mails.Count);
        Assert.All(await host.OutboxAsync(), row => Assert.Equal(AlertNoticeKind.Opened, row.Kind));
    }
}
