using System.Diagnostics;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>
/// The server's span around storing one snapshot, whichever way it arrived (the embedded collector, or a standalone
/// collector's POST). Under an embedded poll it is a child of the poll's span.
/// </summary>
public static class IngestionTelemetry
{
    public const string Name = "IfiDashboard.Server";
    public const string StoreSpan = "store snapshot";
    public const string SnapshotIdTag = "ifi.snapshot.id";
    public const string DuplicateTag = "ifi.snapshot.duplicate";

    static readonly ActivitySource Source = new(Name);

    public static Activity? StartStoring(InstanceSnapshot snapshot)
    {
        var span = Source.StartActivity(StoreSpan);
        span?.SetTag(SnapshotIdTag, snapshot.SnapshotId).SetTag(TelemetryTags.InstanceId, snapshot.InstanceId)
            .SetTag(TelemetryTags.Outcome, snapshot.Overall.Outcome.ToString());
        return span;
    }

    /// <summary>A snapshot id seen before: delivered again, stored once.</summary>
    public static void MarkDuplicate(Activity? span) => span?.SetTag(DuplicateTag, true);
}
