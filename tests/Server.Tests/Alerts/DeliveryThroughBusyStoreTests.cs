using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Server.Tests.Store;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// Another writer holds the store just as the relay accepts a mail: the mark that it was sent waits the lock out
/// instead of failing, so the row is not sent a second time when its claim runs out (found by the soak's design:
/// the store's write lock taken while alerts flow).
/// </summary>
[Trait(TestDatabase.PostgresPassTrait, TestDatabase.PostgresPassValue)]
public sealed class DeliveryThroughBusyStoreTests
{
    [Fact]
    public async Task A_mail_accepted_while_another_writer_holds_the_store_is_marked_sent_when_it_is_free_and_not_sent_again()
    {
        // The relay takes its time over the message, so the store can be locked between the row's claim and its mark.
        await using var smtp = SmtpSink.Create(SinkMode.None);
        smtp.AcceptDelay = TimeSpan.FromSeconds(2);
        await smtp.StartAsync();
        await using var bed = AlertsTestBed.Create(new ScenarioInstance { Name = "unused", Profile = "2019", IfiEnabled = true });
        await using var host = bed.StartHost(smtp);
        await host.Services.GetRequiredService<OutboxStore>().AddAsync(
            [new OutboxMessage("busy-store:1", AlertNoticeKind.Opened, null, null, null, [AlertsHost.ProdTeam],
                new AlertMailContent("[IFI] busy store", "busy store", "<p>busy store</p>"))], CancellationToken.None);

        var delivering = host.DeliverAsync();
        await Eventually.WaitAsync(() => host.OutboxAsync(), rows => rows.Single().NextAttemptAt > bed.Clock.GetUtcNow());
        await using (await HeldWriteLock.TakeAsync(bed.Database))
        {
            await smtp.WaitForAsync(1);
            // Held until the mark has met the lock, which takes the store's own lock wait.
            await Eventually.WaitAsync(() => host.Logs.All,
                logs => logs.Contains("is marked sent again", StringComparison.Ordinal) || delivering.IsCompleted, 30);
        }
        // The mark's pauses run on the test's clock.
        await Eventually.WaitAsync(async () =>
        {
            bed.Clock.Advance(TimeSpan.FromMilliseconds(250));
            return await host.OutboxAsync();
        }, rows => rows.Single().Status == OutboxStatus.Sent, 30);
        await delivering;
        // Past the claim and past any retry: nothing is left to send.
        bed.Clock.Advance(TimeSpan.FromMinutes(5));
        await host.DeliverAsync();

        var row = (await host.OutboxAsync()).Single();
        Assert.Equal((OutboxStatus.Sent, 1), (row.Status, row.Attempts));
        Assert.Single(smtp.Messages());
        Assert.Contains("is marked sent again", host.Logs.All, StringComparison.Ordinal);
    }
}
