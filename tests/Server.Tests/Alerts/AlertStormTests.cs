using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// A sync or a patch night turns many instances at once: past the storm threshold, one recipient list gets one
/// grouped mail instead of a mail per instance, while a quiet list still gets its single alert. And instances registered
/// with problems already (their baseline) come to each list as one baseline mail, storm or not.
/// </summary>
public sealed class AlertStormTests
{
    static ScenarioInstance Production(string name, bool ifiEnabled = true) => new() { Name = name, Profile = "2019", IfiEnabled = ifiEnabled };

    /// <summary>Registers the fleet and takes its baseline healthy, then IFI is lost everywhere at once.</summary>
    static async Task LoseIfiEverywhereAsync(AlertsTestBed bed, AlertsHost host)
    {
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        foreach (var instance in bed.Fleet.Scenario.Instances)
            bed.Fleet.Update(instance.Name, i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();
    }

    [Fact]
    public async Task Instances_registered_with_problems_come_as_one_baseline_mail_per_list_not_a_mail_each()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(
            Production("prod-a", ifiEnabled: false), Production("prod-b", ifiEnabled: false), Production("prod-c"),
            new ScenarioInstance { Name = "test-a", Profile = "2019", IfiEnabled = false, Inventory = new ScenarioInventory { Environment = "Test" } });
        await using var host = bed.StartHost(smtp, s => s["Alerts:Rules:Unknown"] = "false");
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();

        await host.SettleAsync();
        var mails = (await smtp.WaitForAsync(2)).ToList();
        var again = await host.EvaluateAsync();
        bed.Fleet.Update("prod-c", i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();
        var later = (await smtp.WaitForAsync(3))[2];

        var prod = Assert.Single(mails, m => m.RcptTos.Contains(AlertsHost.ProdTeam));
        Assert.Equal("[IFI] Baseline: 2 newly registered instances with IFI problems", prod.Subject);
        Assert.Contains("prod-a", prod.Text, StringComparison.Ordinal);
        Assert.Contains("prod-b", prod.Text, StringComparison.Ordinal);
        Assert.DoesNotContain("prod-c", prod.Text, StringComparison.Ordinal);
        var test = Assert.Single(mails, m => m.RcptTos.Contains(AlertsHost.Everyone));
        Assert.Equal("[IFI] Baseline: 1 newly registered instance with IFI problems", test.Subject);
        Assert.Equal(0, again);
        Assert.Equal("[IFI] IFI off on prod-c (Production)", later.Subject);
        Assert.Equal([AlertNoticeKind.Opened, AlertNoticeKind.Baseline, AlertNoticeKind.Baseline], (await host.OutboxAsync()).Select(r => r.Kind).Order());
    }

    [Fact]
    public async Task More_alerts_than_the_threshold_for_one_list_arrive_as_one_grouped_mail_and_a_quiet_list_gets_its_own()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(
            Production("prod-a"), Production("prod-b"), Production("prod-c"), Production("prod-d"), Production("prod-e"),
            new ScenarioInstance { Name = "test-a", Profile = "2019", IfiEnabled = true, Inventory = new ScenarioInventory { Environment = "Test" } });
        await using var host = bed.StartHost(smtp, s =>
        {
            s["Alerts:Storm:Threshold"] = "3";
            s["Alerts:Rules:Unknown"] = "false";
        });
        await LoseIfiEverywhereAsync(bed, host);

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
        await LoseIfiEverywhereAsync(bed, host);

        await host.SettleAsync();
        var mails = await smtp.WaitForAsync(3);

        Assert.Equal(3, mails.Count);
        Assert.All(await host.OutboxAsync(), row => Assert.Equal(AlertNoticeKind.Opened, row.Kind));
    }
}
