using System.Security.Claims;
using IfiDashboard.Client.Pages;
using IfiDashboard.Server.Alerts.Delivery;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Alerts.Smtp;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Alerts;

/// <summary>The alert pages' view of the outbox and the settings, and the test email.</summary>
public sealed class AlertsView(OutboxStore outbox, AlertSilenceStore silences, AlertSettings alertSettings, SmtpMailClient smtp,
    IOptions<AlertOptions> options, TimeProvider time, AuditLog audit) : IAlertsView
{
    public async Task<IReadOnlyList<AlertHistoryItem>> RecentAsync(int count, CancellationToken ct)
    {
        var rows = await outbox.RecentAsync(count, ct);
        var silencedBy = (await silences.FindAsync(rows.Select(r => r.SilenceId).OfType<long>().ToList(), ct)).ToDictionary(s => s.Id);
        return rows.Select(e => new AlertHistoryItem(e.Id, e.CreatedAt, e.Kind.ToString(), e.Rule?.ToString(),
            e.InstanceId, e.InstanceName, e.Subject, e.Recipients, e.Status.ToString(), e.Attempts, e.NextAttemptAt, e.SentAt, e.LastError,
            e.SilenceId is { } id && silencedBy.TryGetValue(id, out var silence) ? silence : null)).ToList();
    }

    public async Task<AlertSettingsSummary> SettingsAsync(CancellationToken ct)
    {
        var (o, stored) = await alertSettings.GetAsync(ct);
        var rules = o.Rules;
        return new AlertSettingsSummary(
            o.Enabled, o.DashboardUrl, o.Smtp.Host, o.Smtp.EffectivePort, o.Smtp.Security.ToString(), o.Smtp.From,
            o.Smtp.UserName, !string.IsNullOrEmpty(o.Smtp.Password),
            [
                new("NonCompliant", rules.NonCompliant, "IFI off where policy requires it, or on where policy forbids it"),
                new("Unknown", rules.Unknown, $"IFI state unknown for {MailFormat.Duration(rules.UnknownAfter)} or longer"),
                new("WaiverExpiring", rules.WaiverExpiring, $"a waiver ends within {rules.WaiverExpiringDays} days (one warning per waiver)"),
                new("Recovery", rules.Recovery, "a problem someone was told about has ended"),
                new("Failover", rules.Failover, "a failover put an instance lacking IFI that policy requires in charge"),
                new("FailoverNotice", rules.FailoverNotice, "any other failover or cluster owner move: the roles changed"),
            ],
            o.Routes.Select((r, i) => new AlertRouteSummary(i + 1, r.Describe(), r.To)).ToList(),
            o.DefaultTo,
            o.RenotifyInterval > TimeSpan.Zero ? $"every {MailFormat.Duration(o.RenotifyInterval)} while a problem lasts" : "never",
            o.Digest.Enabled ? $"daily after {o.Digest.TimeUtc:hh\\:mm} UTC" : "off",
            $"up to {o.Delivery.MaxAttempts} attempts, first retry after {MailFormat.Duration(o.Delivery.FirstRetryDelay)}, doubling up to {MailFormat.Duration(o.Delivery.MaxRetryDelay)}",
            o.RenotifyInterval, stored.ChangedBy, stored.ChangedAt);
    }

    public Task SaveSettingsAsync(AlertSettingsChange change, ClaimsPrincipal by, CancellationToken ct) => alertSettings.SaveAsync(change, by, ct);

    public async Task<TestEmailOutcome> SendTestAsync(string to, CancellationToken ct)
    {
        var settings = await SettingsAsync(ct);
        // The page is open to anyone who can reach the dashboard: it must not become a way to mail arbitrary addresses.
        if (!settings.AllRecipients.Contains(to, StringComparer.OrdinalIgnoreCase))
            return new TestEmailOutcome(false, "The test email goes only to addresses in Alerts:DefaultTo or Alerts:Routes.");
        var smtpOptions = options.Value.Smtp;
        var relay = $"{smtpOptions.Host}:{smtpOptions.EffectivePort} ({smtpOptions.Security})";
        var content = TestMailComposer.Compose(time.GetUtcNow(), relay);
        var message = new OutboxMessage($"Test:{Guid.NewGuid():N}", AlertNoticeKind.Test, null, null, null, [to], content);
        try
        {
            await using var batch = smtp.StartBatch(smtpOptions);
            await batch.SendAsync(new OutgoingMail([to], content.Subject, content.Text, content.Html, Guid.NewGuid().ToString("N")), ct);
        }
        catch (SmtpDeliveryException e)
        {
            await outbox.RecordAsync(message, sent: false, e.Message, CancellationToken.None);
            await audit.RecordAsync(AuditActions.TestEmailSent, to, null, new { relay, accepted = false }, CancellationToken.None);
            return new TestEmailOutcome(false, e.Message);
        }
        await outbox.RecordAsync(message, sent: true, null, CancellationToken.None);
        await audit.RecordAsync(AuditActions.TestEmailSent, to, null, new { relay, accepted = true }, CancellationToken.None);
        return new TestEmailOutcome(true, $"Accepted by {relay} for {to}.");
    }
}
