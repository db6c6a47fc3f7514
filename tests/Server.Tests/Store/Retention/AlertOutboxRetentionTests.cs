using Dapper;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Store.Alerts;
using static IfiDashboard.Server.Tests.Store.Retention.HistorySnapshots;

namespace IfiDashboard.Server.Tests.Store.Retention;

public sealed class AlertOutboxRetentionTests
{
    static readonly CancellationToken None = CancellationToken.None;

    internal static OutboxMessage Mail(string dedupeKey) => new(dedupeKey, AlertNoticeKind.Opened, null, "SQL01",
        AlertRule.NonCompliant, ["dba@example.com"], new AlertMailContent("IFI is off on SQL01", "text", "<p>html</p>"));

    [Theory, StoreProviders]
    public async Task Old_sent_failed_and_silenced_mail_goes_pending_and_recent_mail_stays(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.AlertOutboxDays = 180);
        var outbox = new OutboxStore(bed.Store.Connections, bed.Clock);
        var silence = await new AlertSilenceStore(bed.Store.Connections, bed.Clock, bed.Store.Audit).AddAsync(new IfiDashboard.Shared.Alerts.AlertSilence
        {
            Kind = IfiDashboard.Shared.Alerts.SilenceKind.Silence, Environment = "Production", Reason = "patch night", CreatedBy = "alice",
            CreatedAt = bed.Clock.GetUtcNow(), ExpiresAt = bed.Clock.GetUtcNow().AddDays(1),
        }, None);
        await outbox.RecordAsync(Mail("old-sent"), sent: true, error: null, None);
        await outbox.RecordAsync(Mail("old-failed"), sent: false, error: "550 mailbox unavailable", None);
        await outbox.AddAsync([Mail("old-silenced") with { SilencedBy = silence }], None);
        await outbox.AddAsync([Mail("old-pending")], None);
        bed.Clock.SetUtcNow(Day(100));
        await outbox.RecordAsync(Mail("recent-sent"), sent: true, error: null, None);
        bed.Clock.SetUtcNow(Day(200));

        var report = await bed.PruneAsync();

        Assert.Equal(3, report.AlertMails);
        await using var connection = await bed.Store.OpenAsync();
        var kept = await connection.QueryAsync<string>("SELECT dedupe_key FROM alert_outbox ORDER BY dedupe_key;");
        Assert.Equal(["old-pending", "recent-sent"], kept);
    }
}
