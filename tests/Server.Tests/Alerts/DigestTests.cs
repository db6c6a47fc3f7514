using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Tests.Alerts;

public sealed class DigestTests
{
    [Fact]
    public async Task The_daily_digest_lists_each_recipient_lists_problems_once_a_day()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(
            new ScenarioInstance { Name = "sql-prod-off", Profile = "2019", IfiEnabled = false },
            new ScenarioInstance { Name = "sql-test-off", Profile = "2019", IfiEnabled = false, Inventory = new ScenarioInventory { Environment = "Test" } },
            new ScenarioInstance { Name = "sql-test-on", Profile = "2019", IfiEnabled = true, Inventory = new ScenarioInventory { Environment = "Test" } });
        await using var host = bed.StartHost(smtp, s =>
        {
            s["Alerts:Digest:Enabled"] = "true";
            s["Alerts:Digest:TimeUtc"] = "00:00:00";
            s["Alerts:Rules:NonCompliant"] = "false";
        });
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();

        var digests = await smtp.WaitForAsync(2);
        await host.PollAndAssessAsync();
        await host.SettleAsync();

        Assert.Equal(2, smtp.Messages().Count);
        var prod = digests.Single(d => d.RcptTos.Contains(AlertsHost.ProdTeam));
        var rest = digests.Single(d => d.RcptTos.Contains(AlertsHost.Everyone));
        Assert.Contains("1 non-compliant", prod.Subject, StringComparison.Ordinal);
        Assert.Contains("sql-prod-off", prod.Text, StringComparison.Ordinal);
        Assert.Contains("sql-test-off", rest.Text, StringComparison.Ordinal);
        Assert.DoesNotContain("sql-test-on", rest.Text, StringComparison.Ordinal);
        Assert.All(await host.OutboxAsync(), row => Assert.Equal(AlertNoticeKind.Digest, row.Kind));
    }
}
