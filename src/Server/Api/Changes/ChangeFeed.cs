using IfiDashboard.Store;
using IfiDashboard.Store.Changes;

namespace IfiDashboard.Server.Api.Changes;

/// <summary>
/// Merges the journal and the IFI timeline into one page, oldest first. The merge only ever takes the head of either
/// list, so each source's part of a page is a prefix of its rows in id order and the cursor can name both ends.
/// </summary>
internal static class ChangeFeed
{
    public static ChangePage Page(IReadOnlyList<JournalRow> journal, IReadOnlyList<TimelineRow> timeline,
        ChangeCursor since, int limit)
    {
        var walked = Walk(journal, timeline, since).Take(limit).ToList();
        var hasMore = walked.Count < journal.Count + timeline.Count;
        return new ChangePage(walked.Select(w => w.Entry).ToList(), (walked.Count > 0 ? walked[^1].After : since).Encode(), hasMore);
    }

    /// <summary>
    /// The entries of both sources in feed order, each with the cursor that follows it: what <c>since</c> must be to
    /// get the entries after this one (a change webhook's payload carries it, so a receiver can catch up by pulling).
    /// </summary>
    public static IEnumerable<(ChangeEntry Entry, ChangeCursor After)> Walk(IReadOnlyList<JournalRow> journal,
        IReadOnlyList<TimelineRow> timeline, ChangeCursor since)
    {
        int j = 0, t = 0;
        var cursor = since;
        while (j < journal.Count || t < timeline.Count)
        {
            // Times are fixed-width UTC text: ordinal order is time order. On a tie the journal goes first.
            var takeJournal = t == timeline.Count
                || (j < journal.Count && journal[j].OccurredAt <= timeline[t].ChangedAt);
            if (takeJournal)
            {
                cursor = cursor with { JournalId = journal[j].Id };
                yield return (Entry(journal[j++]), cursor);
            }
            else
            {
                cursor = cursor with { TimelineId = timeline[t].Id };
                yield return (Entry(timeline[t++]), cursor);
            }
        }
    }

    static ChangeEntry Entry(JournalRow row) => row.Kind == JournalKinds.Status
        ? new ChangeEntry($"j{row.Id}", "status", row.OldValue is null ? "firstSeen" : "changed", row.OccurredAt,
            row.InstanceId, row.InstanceName, row.ExternalKey, row.OldValue, row.NewValue, null, row.Detail)
        : new ChangeEntry($"j{row.Id}", "inventory", row.Change, row.OccurredAt,
            row.InstanceId, row.InstanceName, row.ExternalKey, null, null, row.Version, row.Detail);

    static ChangeEntry Entry(TimelineRow row)
    {
        var (change, detail) = row.Field switch
        {
            "ifi_enabled" => ("ifiEnabled", row.NewValue == "Y" ? "IFI turned on" : row.NewValue == "N" ? "IFI turned off" : "IFI flag changed"),
            "service_account" => ("serviceAccount", "The engine's service account changed"),
            "last_startup_time" => ("serviceStarted", "The engine service restarted"),
            "availability_role" => ("availabilityFailover", "The instance's role in an availability group changed (a failover)"),
            "cluster_owner" => ("clusterOwnerMoved", "The failover cluster instance moved to another node"),
            _ => (row.Field, "Engine service changed"),
        };
        return new ChangeEntry($"t{row.Id}", "timeline", change, row.ChangedAt, row.InstanceId,
            row.InstanceName, row.ExternalKey, row.OldValue, row.NewValue, null, detail, row.Doubt);
    }
}
