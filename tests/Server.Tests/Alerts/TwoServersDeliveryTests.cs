using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// Two servers on one store, both delivering from the same outbox at the same time: each row is claimed in the store
/// before it is sent, so every mail reaches the relay once, and the rows end Sent with one attempt each.
/// </summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class TwoServersDeliveryTests
{
    const int Mails = 40;

    [Fact]
    public async Task Two_servers_sending_from_one_outbox_at_once_send_each_mail_once()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(new ScenarioInstance { Name = "unused", Profile = "2019", IfiEnabled = true });
        await using var first = bed.StartHost(smtp);
        await using var second = bed.StartHost(smtp);
        var queued = await first.Services.GetRequiredService<OutboxStore>().AddAsync(Enumerable.Range(1, Mails)
            .Select(i => new OutboxMessage($"two-servers:{i}", AlertNoticeKind.Opened, null, null, null, [AlertsHost.ProdTeam],
                new AlertMailContent($"[IFI] mail {i}", $"mail {i}", $"<p>mail {i}</p>")))
            .ToList(), CancellationToken.None);

        // Both servers' delivery loops are awake too: four senders race for the same rows.
        first.WakeDelivery();
        second.WakeDelivery();
        await Task.WhenAll(first.DeliverAsync(), second.DeliverAsync());
        await smtp.WaitForAsync(Mails);
        await Task.WhenAll(first.DeliverAsync(), second.DeliverAsync());
        var rows = await first.OutboxAsync();

        Assert.Equal(Mails, queued);
        var subjects = smtp.Messages().Select(m => m.Subject).ToList();
        Assert.Equal(Mails, subjects.Count);
        Assert.Equal(Mails, subjects.Distinct().Count());
        Assert.All(rows, row => Assert.Equal((OutboxStatus.Sent, 1), (row.Status, row.Attempts)));
    }
}
