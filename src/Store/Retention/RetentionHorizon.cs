using Microsoft.Extensions.Options;

namespace IfiDashboard.Store.Retention;

/// <summary>
/// The cut-offs as of now, shared by the pruner and by ingestion. Ingestion stores no growth event older than the
/// growth-event cut-off: the collector re-reads the whole default trace after a restart (its watermark lives in
/// memory), and without this an event retention deleted would come back. The cut-off only moves forward, so an event
/// the pruner deleted is older than every cut-off ingestion uses afterwards.
/// </summary>
public sealed class RetentionHorizon(IOptions<RetentionOptions> options, TimeProvider time)
{
    /// <summary>The cut-offs now; null when retention is off (nothing is pruned).</summary>
    public RetentionCutoffs? Current() =>
        options.Value is { Enabled: true } o ? RetentionCutoffs.At(time.GetUtcNow(), o) : null;

    /// <summary>The oldest growth-event start time worth storing; null when retention is off (all are stored).</summary>
    public DateTimeOffset? GrowthEventsKeptFrom() => Current()?.GrowthEventsBefore;
}
