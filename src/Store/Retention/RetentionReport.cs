namespace IfiDashboard.Store.Retention;

/// <summary>What one pruning pass deleted, and in how many batches (transactions); or that another server was pruning.</summary>
public sealed record RetentionReport(
    long Polls,
    long ProbeOutcomes,
    long ServiceSnapshots,
    long GrowthEvents,
    long AlertMails,
    int Batches)
{
    public static readonly RetentionReport Nothing = new(0, 0, 0, 0, 0, 0);

    /// <summary>Audit entries and refusal counts older than <c>Retention:AuditDays</c>.</summary>
    public long AuditEntries { get; init; }
    public long RefusalCounts { get; init; }

    /// <summary>This server skipped its pass: another server on the store held the <see cref="RetentionLease"/>.</summary>
    public static readonly RetentionReport AnotherServerPruning = Nothing with { Skipped = true };

    public bool Skipped { get; init; }

    public bool DeletedAny => Polls + ProbeOutcomes + ServiceSnapshots + GrowthEvents + AlertMails + AuditEntries + RefusalCounts > 0;
}
