using System.Text.Json;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Standalone;

/// <summary>Delivers queued snapshots to the server, oldest first, backing off while it cannot be reached.</summary>
public sealed class SnapshotOutboxDelivery(
    SnapshotOutbox outbox,
    CollectorApiClient server,
    OutboxOptions options,
    TimeProvider time,
    ILogger<SnapshotOutboxDelivery> logger) : BackgroundService
{
    static readonly TimeSpan IdleWait = TimeSpan.FromSeconds(5);

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
    /// Sends every queued snapshot; stops at the first failure, leaving it and the rest queued. A snapshot the server
    /// refuses for good (<see cref="SnapshotRefusedException"/>) is set aside as <c>.refused</c> with the reason logged,
    /// so that one snapshot cannot hold up the queue behind it.
    /// </summary>
    public async Task<int> DeliverPendingAsync(CancellationToken cancellationToken)
    {
        var delivered = 0;
        foreach (var path in outbox.Pending())
        {
            InstanceSnapshotFile? snapshot;
            try
            {
                snapshot = new(path, await SnapshotOutbox.ReadAsync(path, cancellationToken));
            }
            catch (JsonException e)
            {
                // A file that cannot be read back can never be delivered: set it aside rather than block the queue.
                logger.LogError(e, "Outbox file {File} is unreadable; moved aside", Path.GetFileName(path));
                File.Move(path, path + ".bad", overwrite: true);
                continue;
            }
            try
            {
                await server.WriteAsync(snapshot.Snapshot, cancellationToken);
            }
            catch (SnapshotRefusedException e)
            {
                logger.LogError("Outbox file {File} (instance {InstanceId}) moved aside: {Reason}",
                    Path.GetFileName(path), snapshot.Snapshot.InstanceId, e.Message);
                File.Move(path, path + ".refused", overwrite: true);
                continue;
            }
            File.Delete(snapshot.Path);
            delivered++;
        }
        return delivered;
    }

    TimeSpan Backoff(int failures) =>
        TimeSpan.FromSeconds(Math.Min(options.MaxBackoffSeconds, Math.Pow(2, Math.Min(failures, 10))));

    sealed record InstanceSnapshotFile(string Path, Shared.Snapshots.InstanceSnapshot Snapshot);
}
