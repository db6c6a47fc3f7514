using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Telemetry;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Scheduling;

/// <summary>
/// Keeps up to <see cref="CollectorOptions.MaxConcurrency"/> polls running: it leases due instances as slots free
/// up, so a hanging instance holds one slot until its deadline and never delays the others.
/// </summary>
public sealed class CollectorService(
    IInstanceSource source,
    InstanceProber prober,
    ISnapshotSink sink,
    CollectorOptions options,
    CollectorMetrics metrics,
    CollectorWakeUp wakeUp,
    TimeProvider time,
    ILogger<CollectorService> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var slots = new SemaphoreSlim(options.MaxConcurrency);
        ReserveThreads(options.MaxConcurrency);
        await ReleaseOldLeasesAsync(stoppingToken);
        logger.LogInformation("Collector {Collector} started with {Concurrency} concurrent polls", options.Name, options.MaxConcurrency);
        var leaseFailures = 0;
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await slots.WaitAsync(stoppingToken);
                var free = slots.CurrentCount + 1;
                var woken = wakeUp.Next;
                IReadOnlyList<InstanceRegistration> due;
                try
                {
                    due = await source.LeaseDueAsync(options.Name, free, Lease, stoppingToken);
                }
                catch
                {
                    // Without this, each failed lease would keep a slot, and after MaxConcurrency failures (a short
                    // server outage) the collector would wait for a free slot for ever.
                    slots.Release();
                    throw;
                }
                leaseFailures = 0;
                if (due.Count == 0)
                {
                    slots.Release();
                    await CollectorWakeUp.IdleAsync(woken, TimeSpan.FromSeconds(options.IdleCheckSeconds), time, stoppingToken);
                    continue;
                }
                // One slot is already held for the first instance; take one more for each of the others.
                for (var i = 0; i < due.Count; i++)
                {
                    if (i > 0) await slots.WaitAsync(stoppingToken);
                    var instance = due[i];
                    _ = Task.Run(async () =>
                    {
                        try { await PollAndStoreAsync(instance, stoppingToken); }
                        finally { slots.Release(); }
                    }, CancellationToken.None);
                }
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                break;
            }
            catch (Exception e)
            {
                // The store or server being unavailable must not end collection. One line per failure (the reason is
                // the message: a refused connection, a rejected key), with backoff, not a stack trace every few seconds.
                leaseFailures++;
                var wait = LeaseBackoff(leaseFailures);
                logger.LogError("Leasing due instances failed: {Reason} Retrying in {WaitSeconds} s.", e.Message, wait.TotalSeconds);
                logger.LogDebug(e, "Lease failure");
                await Task.Delay(wait, time, stoppingToken);
            }
        }
    }

    /// <summary>
    /// A poll opens its connection (connect, TLS handshake, login) synchronously on a thread-pool thread
    /// (InstanceProber.OpenAsync). With many polls opening at once the pool would grow one thread at a time while
    /// connections wait, and healthy instances would time out; so the pool starts with a thread per poll slot.
    /// </summary>
    internal static void ReserveThreads(int concurrency)
    {
        ThreadPool.GetMinThreads(out var workers, out var io);
        var wanted = concurrency * 2 + Environment.ProcessorCount;
        if (workers < wanted) ThreadPool.SetMinThreads(wanted, io);
    }

    async Task ReleaseOldLeasesAsync(CancellationToken stoppingToken)
    {
        try
        {
            await source.ReleaseAllAsync(options.Name, stoppingToken);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            logger.LogWarning("Could not release the leases of a previous run ({Reason}); they expire by themselves", e.Message);
        }
    }

    TimeSpan Lease => TimeSpan.FromSeconds(options.LeaseSeconds);

    /// <summary>5 × the idle check after the first failure, doubling up to a minute.</summary>
    TimeSpan LeaseBackoff(int failures) =>
        TimeSpan.FromSeconds(Math.Min(60, options.IdleCheckSeconds * 5 * Math.Pow(2, Math.Min(failures - 1, 10))));

    /// <summary>Leases every due instance once and waits for all their polls: for tests and "poll now".</summary>
    public async Task<int> PollDueOnceAsync(CancellationToken cancellationToken)
    {
        ReserveThreads(options.MaxConcurrency);
        var due = await source.LeaseDueAsync(options.Name, int.MaxValue, Lease, cancellationToken);
        using var slots = new SemaphoreSlim(options.MaxConcurrency);
        await Task.WhenAll(due.Select(async instance =>
        {
            await slots.WaitAsync(cancellationToken);
            try { await PollAndStoreAsync(instance, cancellationToken); }
            finally { slots.Release(); }
        }));
        return due.Count;
    }

    async Task PollAndStoreAsync(InstanceRegistration instance, CancellationToken stoppingToken)
    {
        // "Verify now" asked while this instance was leased makes it due again when the lease completes: the wake-up
        // it sent found nothing to lease then, so it is sent again after the completion.
        var requestsBefore = wakeUp.Requests;
        using var span = CollectorTelemetry.StartPoll(instance, options.Name);
        try
        {
            var snapshot = await prober.PollAsync(instance, stoppingToken);
            CollectorTelemetry.SetOutcome(span, snapshot.Overall.Outcome);
            await sink.WriteAsync(snapshot, stoppingToken);
            metrics.Record(snapshot);
            var overall = snapshot.Overall;
            if (overall.Outcome == OutcomeClass.Ok)
                logger.LogDebug("Polled {Instance} in {Ms} ms", instance.Name, (snapshot.FinishedAt - snapshot.StartedAt).TotalMilliseconds);
            else
                logger.LogInformation("Polled {Instance}: {Probe} {Outcome}: {Message}", instance.Name, overall.Probe, overall.Outcome, overall.Message);
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            return;
        }
        catch (Exception e)
        {
            logger.LogError(e, "Storing the poll of {Instance} failed", instance.Name);
        }
        try
        {
            await source.CompleteAsync(instance.Id, options.Name, NextPollAt(instance), stoppingToken);
            if (wakeUp.Requests != requestsBefore) wakeUp.Recheck();
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            // The lease expires by itself; the instance is polled again then.
            logger.LogWarning("Releasing the lease of {Instance} failed ({Reason})", instance.Name, e.Message);
        }
    }

    DateTimeOffset NextPollAt(InstanceRegistration instance)
    {
        var jitter = 1 + (Random.Shared.NextDouble() * 2 - 1) * options.JitterFraction;
        return time.GetUtcNow() + TimeSpan.FromSeconds(Math.Max(1, instance.PollIntervalSeconds) * jitter);
    }
}
