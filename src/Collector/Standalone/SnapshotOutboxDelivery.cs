using System.Text.Json;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Standalone;

/// <summary>
/// Delivers queued snapshots to the server, backing off while it cannot be reached. Snapshots of different instances
/// go side by side, up to <see cref="OutboxOptions.MaxDeliveriesInFlight"/> at once; one instance's go one after
/// another, oldest first, so the server sees each instance's polls in the order they were taken.
/// </summary>
public sealed class SnapshotOutboxDelivery(
    SnapshotOutbox outbox,
    CollectorApiClient server,
    OutboxOptions options,
    TimeProvider time,
    ILogger<SnapshotOutboxDelivery> logger) : BackgroundService
{
    static readonly TimeSpan IdleWait = TimeSpan.FromSeconds(5);

    readonly RefusedSnapshots _refused = new(options, time, logger);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var failures = 0;
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                var delivered = await DeliverPendingAsync(stoppingToken);
                failures = 0;
                if (delivered == 0) await outbox.WaitForWorkAsync(IdleWait, stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException or IOException)
            {
                failures++;
                var wait = Backoff(failures);
                if (e is CollectorKeyRejectedException)
                    logger.LogError("{Reason} {Pending} snapshots queued, retrying in {Wait}", e.Message, outbox.Pending().Count, wait);
                else
                    logger.LogWarning("Server unreachable ({Message}); {Pending} snapshots queued, retrying in {Wait}",
                        e.Message, outbox.Pending().Count, wait);
                await Task.Delay(wait, time, stoppingToken);
            }
        }
    }

    /// <summary>
    /// Sends every queued snapshot. The first failure that concerns every snapshot (server unreachable, key rejected,
    /// busy) stops the round: deliveries under way are cancelled and left queued with the rest, and the failure is
    /// thrown. A snapshot the server refuses (<see cref="SnapshotRefusedException"/>) is set aside as <c>.refused</c>
    /// with a note saying why and the reason logged, so that one snapshot cannot hold up the queue behind it; one whose
    /// refusal can pass is queued again later, and what is set aside too long is deleted (<see cref="RefusedSnapshots"/>).
    /// </summary>
    /// <returns>How many snapshots the server accepted.</returns>
    public async Task<int> DeliverPendingAsync(CancellationToken cancellationToken)
    {
        _refused.RequeueAndPrune();
        var delivered = 0;
        var (unnamed, lanes) = SnapshotOutbox.ByInstance(outbox.Pending());
        // Files queued before their names carried the instance: one after another, ahead of the newer ones.
        foreach (var path in unnamed)
            if (await DeliverAsync(path, cancellationToken))
                delivered++;
        await Parallel.ForEachAsync(lanes,
            new ParallelOptions { MaxDegreeOfParallelism = options.MaxDeliveriesInFlight, CancellationToken = cancellationToken },
            async (lane, laneCancellation) =>
            {
                foreach (var path in lane)
                    if (await DeliverAsync(path, laneCancellation))
                        Interlocked.Increment(ref delivered);
            });
        return delivered;
    }

    /// <summary>Delivers one queued file; false when it was set aside instead.</summary>
    async Task<bool> DeliverAsync(string path, CancellationToken cancellationToken)
    {
        Shared.Snapshots.InstanceSnapshot snapshot;
        try
        {
            snapshot = await SnapshotOutbox.ReadAsync(path, cancellationToken);
        }
        catch (JsonException e)
        {
            // A file that cannot be read back can never be delivered: set it aside rather than block the queue.
            logger.LogError(e, "Outbox file {File} is unreadable; moved aside", Path.GetFileName(path));
            File.Move(path, path + ".bad", overwrite: true);
            return false;
        }
        try
        {
            await server.WriteAsync(snapshot, cancellationToken);
        }
        catch (SnapshotRefusedException e)
        {
            var retried = RefusedSnapshots.CanPass(e.Status) ? $"sent again every {RefusedSnapshots.RetryInterval.TotalMinutes:0} min" : "not sent again";
            logger.LogError("Outbox file {File} (instance {InstanceId}) moved aside, {Retried}: {Reason}",
                Path.GetFileName(path), snapshot.InstanceId, retried, e.Message);
            _refused.SetAside(path, e);
            return false;
        }
        File.Delete(path);
        RefusedSnapshots.Delivered(path);
        return true;
    }

    TimeSpan Backoff(int failures) =>
        TimeSpan.FromSeconds(Math.Min(options.MaxBackoffSeconds, Math.Pow(2, Math.Min(failures, 10))));
}
