using IfiDashboard.Store.Audit;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Store.Retention;

/// <summary>
/// One pruning pass over the store: growth events, then polls (an event's first poll can go only after the event),
/// then finished alert mail, then audit entries and refusal counts (each batch with an entry saying so). Every batch is its own short transaction with a pause after it, so the collector's
/// writes are never held up for long by SQLite's single write lock. The background <see cref="RetentionService"/>
/// calls this on a timer; tests call it directly. Servers sharing a store take turns through the
/// <see cref="RetentionLease"/>: while another holds it, this pass is skipped.
/// </summary>
public sealed class RetentionPruner(
    IDbConnectionFactory connections,
    IOptions<RetentionOptions> options,
    RetentionHorizon horizon,
    RetentionLease lease,
    AuditLog audit,
    TimeProvider time,
    ILogger<RetentionPruner> logger)
{
    public async Task<RetentionReport> PruneOnceAsync(CancellationToken ct)
    {
        if (horizon.Current() is not { } cutoffs)
            return RetentionReport.Nothing;

        if (!await lease.TryTakeAsync(ct))
        {
            logger.LogInformation("Retention: another server ({Holder}) is running a pass on this store; this server skips its own",
                await lease.CurrentHolderAsync(ct) ?? "unknown");
            return RetentionReport.AnotherServerPruning;
        }
        try
        {
            return await PruneAsync(cutoffs, ct);
        }
        finally
        {
            await ReleaseAsync();
        }
    }

    async Task ReleaseAsync()
    {
        try
        {
            // Not the pass's token: a server stopping mid-pass still frees the lease for the others at once.
            await lease.ReleaseAsync(CancellationToken.None);
        }
        catch (Exception e)
        {
            // The pass's own outcome (or failure) matters more; an unreleased lease runs out by itself.
            logger.LogWarning(e, "Retention: releasing the retention lease failed; it runs out within {Duration}", RetentionLease.Duration);
        }
    }

    async Task<RetentionReport> PruneAsync(RetentionCutoffs cutoffs, CancellationToken ct)
    {
        var settings = options.Value;
        var batchSize = settings.BatchSize;
        var pause = TimeSpan.FromMilliseconds(settings.BatchPauseMilliseconds);
        var batches = 0;

        await using var connection = await connections.OpenAsync(ct);

        var events = await DeleteInBatchesAsync(
            () => GrowthEventPruner.DeleteBatchAsync(connection, cutoffs.GrowthEventsBefore, batchSize, ct));

        long polls = 0, probes = 0, services = 0;
        var cursor = PollCursor.Start;
        while (true)
        {
            var batch = await PollHistoryPruner.DeleteBatchAsync(connection, cutoffs.PollsBefore, cursor, batchSize, ct);
            batches++;
            polls += batch.Polls;
            probes += batch.ProbeOutcomes;
            services += batch.ServiceSnapshots;
            cursor = batch.Next;
            if (!batch.Full) break;
            await BeforeNextBatchAsync();
        }

        var mails = await DeleteInBatchesAsync(
            () => AlertOutboxPruner.DeleteBatchAsync(connection, cutoffs.AlertMailBefore, batchSize, ct));

        long auditEntries = 0, refusalCounts = 0;
        while (true)
        {
            var (entries, counts) = await audit.PruneBatchAsync(cutoffs.AuditBefore, batchSize, ct);
            batches++;
            auditEntries += entries;
            refusalCounts += counts;
            if (entries < batchSize && counts < batchSize) break;
            await BeforeNextBatchAsync();
        }

        var report = new RetentionReport(polls, probes, services, events, mails, batches)
        {
            AuditEntries = auditEntries,
            RefusalCounts = refusalCounts,
        };
        Log(report, cutoffs);
        return report;

        // Batch after batch until one comes back short (nothing older is left), pausing between them.
        async Task<long> DeleteInBatchesAsync(Func<Task<int>> deleteBatch)
        {
            long total = 0;
            while (true)
            {
                var deleted = await deleteBatch();
                batches++;
                total += deleted;
                if (deleted < batchSize) return total;
                await BeforeNextBatchAsync();
            }
        }

        // The lease is renewed between batches, so a long pass keeps it; one that lost it (it ran out while this
        // server stalled, and another took it) stops rather than prune alongside.
        async Task BeforeNextBatchAsync()
        {
            if (!await lease.RenewAsync(ct))
                throw new InvalidOperationException("The retention lease ran out and another server took it; this pass stops.");
            if (pause > TimeSpan.Zero)
                await Task.Delay(pause, time, ct);
        }
    }

    void Log(RetentionReport report, RetentionCutoffs cutoffs)
    {
        if (!report.DeletedAny)
        {
            logger.LogDebug("Retention: nothing to prune (polls before {PollsBefore:o}, growth events before {EventsBefore:o}, alert mail before {MailBefore:o}, audit entries before {AuditBefore:o})",
                cutoffs.PollsBefore, cutoffs.GrowthEventsBefore, cutoffs.AlertMailBefore, cutoffs.AuditBefore);
            return;
        }
        logger.LogInformation(
            "Retention pruned {Polls} polls ({ProbeOutcomes} probe outcomes, {ServiceSnapshots} service rows) started before {PollsBefore:o}, " +
            "{GrowthEvents} growth events started before {EventsBefore:o}, {AlertMails} sent, failed or silenced alert mails written before {MailBefore:o} " +
            "and {AuditEntries} audit entries and {RefusalCounts} refusal counts written before {AuditBefore:o}, in {Batches} batches",
            report.Polls, report.ProbeOutcomes, report.ServiceSnapshots, cutoffs.PollsBefore,
            report.GrowthEvents, cutoffs.GrowthEventsBefore, report.AlertMails, cutoffs.AlertMailBefore,
            report.AuditEntries, report.RefusalCounts, cutoffs.AuditBefore, report.Batches);
    }
}
