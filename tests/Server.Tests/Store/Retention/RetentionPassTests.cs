using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Retention;
using IfiDashboard.Server.Tests.Alerts;
using Microsoft.Extensions.Logging;
using static IfiDashboard.Server.Tests.Store.Retention.HistorySnapshots;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>A whole pass: batching across every table, and the switch that turns it off.</summary>
public sealed class RetentionPassTests
{
    static readonly CancellationToken None = CancellationToken.None;

    /// <summary>An instance with 7 growth events, 10 prunable polls between its first and its latest, and 5 sent mails, all old.</summary>
    static async Task<long> WriteOldHistoryAsync(RetentionBed bed)
    {
        var id = await bed.AddInstanceAsync("SQL01");
        var events = Enumerable.Range(1, 7).Select(i => Growth(Day(0).AddMinutes(-i))).ToArray();
        await bed.WriteAsync(TestData.Good(id, Day(0)).WithGrowth(events));
        for (var day = 1; day <= 10; day++)
            await bed.WriteAsync(TestData.Unreachable(id, Day(day)));
        await bed.WriteAsync(TestData.Good(id, Day(11)));
        var outbox = new OutboxStore(bed.Store.Connections, bed.Clock);
        for (var i = 0; i < 5; i++)
            await outbox.RecordAsync(AlertOutboxRetentionTests.Mail($"sent-{i}"), sent: true, error: null, None);
        return id;
    }

    [Theory, StoreProviders]
    public async Task More_rows_than_one_batch_are_pruned_batch_by_batch(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.BatchSize = 3);
        var id = await WriteOldHistoryAsync(bed);
        bed.Clock.SetUtcNow(Day(402));

        var report = await bed.PruneAsync();

        Assert.Equal((7, 10, 10, 0, 5), (report.GrowthEvents, report.Polls, report.ProbeOutcomes, report.ServiceSnapshots, report.AlertMails));
        // Events 3+3+1, polls 3+3+3+1, mail 3+2, the audit log's one (nothing is old enough): every batch its own transaction.
        Assert.Equal(3 + 4 + 2 + 1, report.Batches);
        Assert.Equal([0, 11], await bed.PollDaysAsync(id));
        Assert.Equal(0, await bed.CountAsync("SELECT COUNT(*) FROM growth_events;"));
        Assert.Equal(0, await bed.CountAsync("SELECT COUNT(*) FROM alert_outbox;"));
        Assert.Equal(0, await bed.OrphansAsync());
    }

    [Theory, StoreProviders]
    public async Task Audit_entries_and_refusal_counts_older_than_the_audit_retention_go_batch_by_batch_each_batch_audited(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => { o.BatchSize = 3; o.AuditDays = RetentionOptions.MinAuditDays; });
        for (var i = 0; i < 4; i++)
            await bed.AddInstanceAsync($"SQL0{i}");
        await bed.Store.Audit.CountRefusalAsync(IfiDashboard.Store.Audit.AuditActions.SignInFailed,
            new IfiDashboard.Store.Audit.AuditActor("anonymous", "10.6.6.6"), "state missing, forged or expired", None);
        bed.Clock.SetUtcNow(Day(RetentionOptions.MinAuditDays - 1));
        await bed.AddInstanceAsync("SQL-RECENT");
        var early = await bed.PruneAsync();
        bed.Clock.SetUtcNow(Day(RetentionOptions.MinAuditDays + 1));

        var report = await bed.PruneAsync();

        Assert.Equal((0, 0), (early.AuditEntries, early.RefusalCounts));
        Assert.Equal((4, 1), (report.AuditEntries, report.RefusalCounts));
        var left = await bed.Store.Audit.QueryAsync(new IfiDashboard.Store.Audit.AuditFilter(), null, 100, None);
        // Two batches (3 + 1 entries), each with its entry; the recent registration stays.
        Assert.Equal(["audit.pruned", "audit.pruned", "instance.registered"], left.Select(e => e.Action));
        Assert.Contains("SQL-RECENT", left[^1].Target, StringComparison.Ordinal);
    }

    [Theory, StoreProviders]
    public async Task Disabled_retention_deletes_nothing_and_ingestion_stores_old_events(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.Enabled = false);
        var id = await WriteOldHistoryAsync(bed);
        bed.Clock.SetUtcNow(Day(1000));
        var ancient = Growth(Day(1));

        var report = await bed.PruneAsync();
        await bed.WriteAsync(TestData.Good(id, Day(1000)).WithGrowth(ancient));

        Assert.Equal(RetentionReport.Nothing, report);
        Assert.Equal(Enumerable.Range(0, 12).Append(1000), await bed.PollDaysAsync(id));
        Assert.Equal(8, await bed.CountAsync("SELECT COUNT(*) FROM growth_events;"));
        Assert.Equal(5, await bed.CountAsync("SELECT COUNT(*) FROM alert_outbox;"));
    }

    [Theory, StoreProviders]
    public async Task A_pass_logs_what_it_deleted(StoreProvider provider)
    {
        using var logs = new CapturedLogs();
        using var factory = LoggerFactory.Create(b => b.AddProvider(logs).SetMinimumLevel(LogLevel.Debug));
        await using var bed = await RetentionBed.CreateAsync(provider, logger: factory.CreateLogger<RetentionPruner>());
        await WriteOldHistoryAsync(bed);
        bed.Clock.SetUtcNow(Day(402));

        await bed.PruneAsync();

        Assert.Contains("Retention pruned 10 polls (10 probe outcomes, 0 service rows)", logs.All);
        Assert.Contains("7 growth events started before 2026-05-05T08:00:00.0000000+00:00", logs.All);
        Assert.Contains("5 sent, failed or silenced alert mails", logs.All);
    }
}
