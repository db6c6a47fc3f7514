using System.Text.Json;
using System.Text.Json.Serialization;
using System.Threading.Channels;
using IfiDashboard.Server.Alerts.Delivery;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Alerts.Webhooks;
using IfiDashboard.Server.Http;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Changes;
using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Server.Api.Changes;

/// <summary>The events of the changes feed a change webhook can subscribe to.</summary>
[JsonConverter(typeof(CamelCaseEnumNames<ChangeEvent>))]
public enum ChangeEvent
{
    /// <summary>An instance was registered (inventory <c>created</c>).</summary>
    Registered,

    /// <summary>A registration was changed (inventory <c>updated</c>).</summary>
    Changed,

    /// <summary>An instance was retired (inventory <c>retired</c>).</summary>
    Retired,

    /// <summary>A poll saw the engine's IFI flag turn off (timeline <c>ifiEnabled</c> to <c>N</c>).</summary>
    IfiLost,

    /// <summary>A poll saw the engine's IFI flag turn on (timeline <c>ifiEnabled</c> to <c>Y</c>).</summary>
    IfiGained,

    /// <summary>An instance's compliance status was first assessed or changed (<c>status</c>).</summary>
    StatusChanged,
}

public static class ChangeEvents
{
    public static readonly IReadOnlyList<ChangeEvent> All = Enum.GetValues<ChangeEvent>();

    /// <summary>The name the API, the payload and the store use: <c>ifiLost</c>.</summary>
    public static string NameOf(ChangeEvent value) => CamelCaseEnumNames<ChangeEvent>.NameOf(value);

    /// <summary>The event a feed entry is, or null for entries no one subscribes to (a service account or restart).</summary>
    public static ChangeEvent? Of(ChangeEntry entry) => (entry.Kind, entry.Change) switch
    {
        ("inventory", InventoryChanges.Created) => ChangeEvent.Registered,
        ("inventory", InventoryChanges.Updated) => ChangeEvent.Changed,
        ("inventory", InventoryChanges.Retired) => ChangeEvent.Retired,
        ("timeline", "ifiEnabled") when entry.NewValue == "N" => ChangeEvent.IfiLost,
        ("timeline", "ifiEnabled") when entry.NewValue == "Y" => ChangeEvent.IfiGained,
        ("status", _) => ChangeEvent.StatusChanged,
        _ => null,
    };
}

/// <summary>
/// What one delivery posts: the feed's entry as <c>/api/v1/changes</c> gives it, its event, and <see cref="Cursor"/>,
/// the feed's cursor after it (pass it as <c>since</c> to pull what followed), so a receiver that missed deliveries
/// catches up by pulling from the last cursor it handled.
/// </summary>
public sealed record ChangeWebhookPayload(string Id, ChangeEvent Event, string Cursor, long Subscription, ChangeEntry Change);

/// <summary>
/// Turns new entries of the changes feed into outbox rows, one per subscribed change and subscription. Runs after
/// every assessment (which follows every stored change within a second, and every minute) and on demand; each
/// subscription's cursor moves in the write transaction that stores its rows, so a change is written once across
/// passes, restarts and servers, and the outbox sends it once with its retries.
/// </summary>
public sealed class ChangeWebhookDispatcher(
    ChangeWebhookStore webhooks,
    ChangeRecorder recorder,
    ChangeJournal journal,
    OutboxDelivery delivery,
    FleetAssessments assessments,
    ILogger<ChangeWebhookDispatcher> logger) : BackgroundService
{
    /// <summary>Entries read per subscription and transaction.</summary>
    const int Batch = 200;

    static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);
    readonly SemaphoreSlim _dispatching = new(1, 1);
    readonly Channel<bool> _assessed = Channel.CreateBounded<bool>(new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite });

    /// <summary>Writes the deliveries of every change not yet written; returns how many rows were new.</summary>
    public async Task<int> DispatchAsync(CancellationToken ct)
    {
        await _dispatching.WaitAsync(ct);
        try
        {
            await recorder.CatchUpAsync(ct);
            var written = 0;
            foreach (var subscription in await webhooks.ListAsync(ct))
            {
                var current = subscription;
                while (true)
                {
                    var since = new ChangeCursor(current.JournalCursor, current.TimelineCursor);
                    var journalRows = await journal.ReadJournalAsync(since.JournalId, Batch + 1, ct);
                    var timelineRows = await journal.ReadTimelineAsync(since.TimelineId, Batch + 1, ct);
                    var walked = ChangeFeed.Walk(journalRows, timelineRows, since).Take(Batch).ToList();
                    if (walked.Count == 0) break;
                    var deliveries = walked
                        .Select(w => (w.Entry, w.After, Event: ChangeEvents.Of(w.Entry)))
                        .Where(w => w.Event is { } e && current.Events.Contains(ChangeEvents.NameOf(e), StringComparer.Ordinal))
                        .Select(w => Delivery(current, w.Entry, w.Event!.Value, w.After))
                        .ToList();
                    var end = walked[^1].After;
                    // Another pass moved the cursor first: it wrote these rows, and the next pass starts from its cursor.
                    if (!await webhooks.AdvanceAsync(current, end.JournalId, end.TimelineId, deliveries, ct)) break;
                    written += deliveries.Count;
                    if (walked.Count < Batch) break;
                    current = current with { JournalCursor = end.JournalId, TimelineCursor = end.TimelineId };
                }
            }
            if (written > 0) delivery.Wake();
            return written;
        }
        finally
        {
            _dispatching.Release();
        }
    }

    static OutboxMessage Delivery(ChangeWebhook subscription, ChangeEntry entry, ChangeEvent @event, ChangeCursor after)
    {
        var body = JsonSerializer.Serialize(new ChangeWebhookPayload(entry.Id, @event, after.Encode(), subscription.Id, entry), Web);
        return new OutboxMessage($"change-webhook:{subscription.Id}:{entry.Id}", AlertNoticeKind.Change, entry.InstanceId,
            entry.InstanceName, null, [ChangeWebhookRecipient.For(subscription.Id)],
            new IfiDashboard.Store.Alerts.Mail.AlertMailContent($"{ChangeEvents.NameOf(@event)}: {entry.InstanceName}", body, ""));
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        void OnAssessed() => _assessed.Writer.TryWrite(true);
        assessments.Assessed += OnAssessed;
        try
        {
            await foreach (var _ in _assessed.Reader.ReadAllAsync(stoppingToken))
            {
                try
                {
                    await DispatchAsync(stoppingToken);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    logger.LogError(e, "Writing change webhook deliveries failed; the next assessment tries again");
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
        finally
        {
            assessments.Assessed -= OnAssessed;
        }
    }
}
