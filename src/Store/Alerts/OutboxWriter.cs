using System.Data.Common;
using Dapper;
using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Store.Alerts;

/// <summary>Inserts outbox rows inside a caller's transaction, so a message is stored with the decision that made it.</summary>
internal static class OutboxWriter
{
    public const string NoRecipients = "No recipients: no route matches this instance and Alerts:DefaultTo is empty.";

    /// <summary>How a recipient list is stored (<c>alert_outbox.recipients</c>): the key storm grouping counts by.</summary>
    public static string RecipientsText(IReadOnlyList<string> recipients) => StoreJson.Text(recipients);

    /// <returns>How many rows were new (a repeated dedupe key inserts nothing).</returns>
    public static async Task<int> InsertAsync(DbConnection connection, DbTransaction tx, IEnumerable<OutboxMessage> messages,
        DateTimeOffset now, CancellationToken ct, OutboxStatus? finalStatus = null, string? finalError = null)
    {
        const string sql = """
            INSERT INTO alert_outbox (dedupe_key, kind, instance_id, instance_name, rule, recipients, subject, text_body,
                html_body, attachments, message_id, created_at, status, attempts, next_attempt_at, last_attempt_at, last_error, sent_at,
                silence_id)
            VALUES (@dedupeKey, @kind, @instanceId, @instanceName, @rule, @recipients, @subject, @textBody,
                @htmlBody, @attachments, @messageId, @now, @status, @attempts, @nextAttemptAt, @lastAttemptAt, @lastError, @sentAt,
                @silenceId)
            ON CONFLICT (dedupe_key) DO NOTHING;
            """;
        var inserted = 0;
        DateTimeOffset? at = now; // nullable, as the optional time columns below take it or NULL
        foreach (var message in messages.SelectMany(PerChannel))
        {
            // A message without recipients can never be sent: it is stored failed, so the history shows the gap.
            var status = finalStatus ?? (message.SilencedBy is not null ? OutboxStatus.Silenced
                : message.Recipients.Count == 0 ? OutboxStatus.Failed : OutboxStatus.Pending);
            var error = finalError ?? (status == OutboxStatus.Failed ? NoRecipients : null);
            inserted += await connection.ExecuteAsync(new CommandDefinition(sql, new
            {
                dedupeKey = message.DedupeKey,
                kind = message.Kind.ToString(),
                instanceId = message.InstanceId,
                instanceName = message.InstanceName,
                rule = message.Rule?.ToString(),
                recipients = new JsonColumn<IReadOnlyList<string>>(message.Recipients),
                subject = message.Content.Subject,
                textBody = message.Content.Text,
                htmlBody = message.Content.Html,
                attachments = message.Content.Attachments is { Count: > 0 } files ? new JsonColumn<IReadOnlyList<MailAttachment>>(files) : null,
                messageId = Guid.NewGuid().ToString("N"),
                now = at,
                status = status.ToString(),
                attempts = finalStatus is null ? 0 : 1,
                nextAttemptAt = status == OutboxStatus.Pending ? at : null,
                lastAttemptAt = finalStatus is null ? null : at,
                lastError = error,
                sentAt = status == OutboxStatus.Sent ? at : null,
                silenceId = message.SilencedBy,
            }, tx, cancellationToken: ct));
        }
        return inserted;
    }

    /// <summary>
    /// One row for the mail recipients and one per webhook, each with a dedupe key of its own: every channel is sent,
    /// retried and marked on its own, so a chat outage neither holds up the mail nor makes it go out twice.
    /// </summary>
    static IEnumerable<OutboxMessage> PerChannel(OutboxMessage message)
    {
        var webhooks = message.Recipients.Where(WebhookRecipient.Is).ToList();
        if (webhooks.Count == 0)
        {
            yield return message;
            yield break;
        }
        var mail = message.Recipients.Where(r => !WebhookRecipient.Is(r)).ToList();
        if (mail.Count > 0) yield return message with { Recipients = mail };
        foreach (var webhook in webhooks)
            yield return message with
            {
                DedupeKey = $"{message.DedupeKey}|{WebhookRecipient.Prefix}{WebhookRecipient.NameOf(webhook)}",
                Recipients = [webhook],
            };
    }
}
