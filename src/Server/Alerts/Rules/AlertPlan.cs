namespace IfiDashboard.Server.Alerts.Rules;

/// <summary>What one evaluation changes: episodes to write, episodes that ended, and messages to send.</summary>
public sealed record AlertPlan(
    IReadOnlyList<AlertState> Upserts,
    IReadOnlyList<(long InstanceId, AlertRule Rule)> Deletes,
    IReadOnlyList<AlertNotice> Notices)
{
    public bool IsEmpty => Upserts.Count == 0 && Deletes.Count == 0 && Notices.Count == 0;
}
