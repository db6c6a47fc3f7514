namespace IfiDashboard.Server.Store.Retention;

/// <summary>What one pruning pass deleted, and in how many batches (transactions).</summary>
public sealed record RetentionReport(
    long Polls,
    long ProbeOutcomes,
    long ServiceSnapshots,
    long GrowthEvents,
    long AlertMails,
    int Batches)
{
    public static readonly RetentionReport Nothing = new(0, 0, 0, 0, 0, 0);

    public bool DeletedAny => Polls + ProbeOutcomes + ServiceSnapshots + GrowthEvents + AlertMails > 0;
}
