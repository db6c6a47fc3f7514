namespace IfiDashboard.Store.Retention;

/// <summary>
/// What one pruning pass deletes: rows older than these instants. All come from one reading of the clock, so a
/// pass is consistent however long it runs.
/// </summary>
public sealed record RetentionCutoffs(DateTimeOffset PollsBefore, DateTimeOffset GrowthEventsBefore, DateTimeOffset AlertMailBefore,
    DateTimeOffset AuditBefore)
{
    public static RetentionCutoffs At(DateTimeOffset now, RetentionOptions options) => new(
        now - TimeSpan.FromDays(options.PollDays),
        now - TimeSpan.FromDays(options.GrowthEventDays),
        now - TimeSpan.FromDays(options.AlertOutboxDays),
        now - TimeSpan.FromDays(options.AuditDays));
}
