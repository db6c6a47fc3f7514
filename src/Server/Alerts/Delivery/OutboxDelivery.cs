using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Alerts.Smtp;
using IfiDashboard.Server.Alerts.Webhooks;
using IfiDashboard.Store;
using IfiDashboard.Store.Alerts;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Alerts.Delivery;

/// <summary>
/// Sends pending outbox rows, oldest due first, one at a time over one relay connection per batch. Each row is claimed
/// in the store before it is sent (<see cref="OutboxStore.ClaimNextAsync"/>), so two servers on one store never send
/// the same row at once. A row the relay accepted is marked sent before anything else happens, so a restart resends
/// nothing that was marked. The one gap: the process dies after the relay accepted and before the mark is stored; the
/// row is then sent again once its claim runs out (at least once, never lost).
/// </summary>
public sealed class OutboxDelivery(
    OutboxStore outbox,
    SmtpMailClient smtp,
    WebhookSender webhooks,
    ChangeWebhookSender changeWebhooks,
    IOptions<AlertOptions> options,
    TimeProvider time,
    ILogger<OutboxDelivery> logger) : BackgroundService
{
    const int Batch = 20;
    static readonly TimeSpan WebhookTimeout = TimeSpan.FromSeconds(30);
    static readonly TimeSpan Idle = TimeSpan.FromMinutes(1);

    readonly SemaphoreSlim _sending = new(1, 1);
    readonly WakeSignal _wake = new();

    /// <summary>Asks the loop to look at the outbox now (a row was written, or the clock moved).</summary>
    public void Wake() => _wake.Set();

    /// <summary>Sends every row that is due; returns how many the relay accepted.</summary>
    public async Task<int> DeliverDueAsync(CancellationToken ct)
    {
        await _sending.WaitAsync(ct);
        try
        {
            var accepted = 0;
            // A failed row is rescheduled into the future, so each pass takes only rows not yet tried in it.
            for (var entry = await outbox.ClaimNextAsync(ClaimFor, ct, OnlyKind); entry is not null;)
            {
                await using var relay = smtp.StartBatch(options.Value.Smtp);
                for (var inBatch = 1; entry is not null; inBatch++)
                {
                    if (await DeliverAsync(relay, entry, ct)) accepted++;
                    entry = inBatch < Batch ? await outbox.ClaimNextAsync(ClaimFor, ct, OnlyKind) : null;
                }
                entry = await outbox.ClaimNextAsync(ClaimFor, ct, OnlyKind);
            }
            return accepted;
        }
        finally
        {
            _sending.Release();
        }
    }

    /// <summary>
    /// How long a claimed row is left to this server: sending one mail takes at most a few relay operations (connect,
    /// TLS, authenticate, send), each bounded by <c>Smtp:TimeoutSeconds</c>.
    /// </summary>
    TimeSpan ClaimFor => TimeSpan.FromSeconds(Math.Max(60, 4 * options.Value.Smtp.TimeoutSeconds));

    /// <summary>
    /// With alerts off only change webhooks are sent: an integration's subscription does not wait for the mail
    /// settings, and nothing of the alerts' goes out while they are switched off.
    /// </summary>
    AlertNoticeKind? OnlyKind => options.Value.Enabled ? null : AlertNoticeKind.Change;

    async Task<bool> DeliverAsync(SmtpBatch relay, OutboxEntry entry, CancellationToken ct)
    {
        // A webhook row names exactly one webhook (OutboxWriter gives each channel its own row).
        var webhook = entry.Recipients is [var only] && WebhookRecipient.Is(only) ? WebhookRecipient.NameOf(only) : null;
        var subscription = ChangeWebhookRecipient.IdOf(entry.Recipients);
        try
        {
            if (subscription is { } id)
                await changeWebhooks.SendAsync(id, entry, ct);
            else if (webhook is null)
                await relay.SendAsync(new OutgoingMail(entry.Recipients, entry.Subject, entry.TextBody, entry.HtmlBody, entry.MessageId, entry.Attachments), ct);
            else
                await SendToWebhookAsync(webhook, entry, ct);
        }
        // A configuration error (a malformed address, a webhook that is gone) stays wrong however often it is tried.
        catch (SmtpDeliveryException e)
        {
            await MarkFailedAsync(entry, e.Message, permanent: e.Stage == SmtpStage.Configuration);
            return false;
        }
        catch (WebhookDeliveryException e)
        {
            await MarkFailedAsync(entry, e.Message, e.Permanent);
            return false;
        }
        // The relay or receiver has it: record that first, without letting a shutdown interrupt the write, and through
        // another writer holding the store: a mark given up on leaves the row to be sent again when its claim runs out.
        await StoreBusy.UntilTakenAsync(() => outbox.MarkSentAsync(entry.Id, CancellationToken.None), time,
            (pause, attempt, _) => logger.LogWarning(
                "The store is busy: alert {OutboxId} was accepted and is marked sent again in {Pause} (attempt {Attempt})",
                entry.Id, pause, attempt),
            ct);
        if (subscription is { } subscriptionId)
            logger.LogInformation("Change {OutboxId} accepted by change webhook {Subscription}", entry.Id, subscriptionId);
        else if (webhook is null)
            logger.LogInformation("Alert mail {OutboxId} accepted by the relay for {RecipientCount} recipient(s)", entry.Id, entry.Recipients.Count);
        else
            logger.LogInformation("Alert {OutboxId} accepted by webhook {Webhook}", entry.Id, webhook);
        return true;
    }

    Task SendToWebhookAsync(string name, OutboxEntry entry, CancellationToken ct)
    {
        var settings = options.Value;
        if (!settings.Webhooks.TryGetValue(name, out var target))
            throw new WebhookDeliveryException($"Webhook '{name}' is not configured (Alerts:Webhooks:{name}).", permanent: true);
        var link = entry.InstanceId is { } id ? MailFormat.InstanceLink(settings.DashboardUrl, id) : null;
        return webhooks.SendAsync(name, target, entry, link, WebhookTimeout, ct);
    }

    async Task MarkFailedAsync(OutboxEntry entry, string error, bool permanent)
    {
        var settings = options.Value;
        var attempts = entry.Attempts + 1;
        var giveUp = permanent || attempts >= settings.Delivery.MaxAttempts;
        DateTimeOffset? retryAt = giveUp ? null : time.GetUtcNow() + RetrySchedule.Delay(attempts, settings.Delivery);
        await outbox.MarkAttemptFailedAsync(entry.Id, error, retryAt, CancellationToken.None);
        logger.LogWarning("Alert {OutboxId} failed (attempt {Attempt}, {Next}): {Error}", entry.Id, attempts,
            retryAt is null ? "given up" : "retry at " + retryAt.Value.ToString("O"), error);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                var woken = _wake.Arm();
                var wait = Idle;
                try
                {
                    await DeliverDueAsync(stoppingToken);
                    if (await outbox.NextDueAsync(stoppingToken, OnlyKind) is { } next)
                        wait = TimeSpan.FromTicks(Math.Clamp((next - time.GetUtcNow()).Ticks, 0, Idle.Ticks));
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    logger.LogError(e, "Delivering alert mail failed; retrying in a minute");
                }
                await WakeSignal.WaitAsync(woken, wait, time, stoppingToken);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }
}
