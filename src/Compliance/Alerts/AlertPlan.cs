using IfiDashboard.Shared.Alerts;

namespace IfiDashboard.Compliance.Alerts;

/// <summary>
/// What one evaluation changes: episodes to write, episodes that ended, instances whose baseline it took (their first
/// assessment after a poll), messages to send, and acknowledgements that end because their instance's alert resolved.
/// </summary>
public sealed record AlertPlan(
    IReadOnlyList<AlertState> Upserts,
    IReadOnlyList<(long InstanceId, AlertRule Rule)> Deletes,
    IReadOnlyList<AlertNotice> Notices,
    IReadOnlyList<long> Baselined,
    IReadOnlyList<AlertSilence> AcknowledgementsEnded)
{
    public bool IsEmpty => Upserts.Count == 0 && Deletes.Count == 0 && Notices.Count == 0 && Baselined.Count == 0
                           && AcknowledgementsEnded.Count == 0;
}
