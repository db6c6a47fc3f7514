namespace IfiDashboard.Server.Store.Retention;

/// <summary>
/// What one pruning pass deletes: rows older than these instants. All three come from one reading of the clock, so a
/// pass is consistent however long it runs.
/// </summary>
public sealed record RetentionCutoffs(DateTimeOffset PollsBefore, DateTimeOffset GrowthEventsBefore, DateTimeOffset AlertMailBefore)
{
    public static RetentionCutoffs At(DateTimeOffset now, RetentionOptions options) => new(
        now - TimeSpan.FromDays(options.PollDays),
        now - TimeSpan.FromDays(options.GrowthEventDays),
        now - TimeSpan.FromDays(options.AlertOutboxDays));
}
