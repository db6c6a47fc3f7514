namespace IfiDashboard.Compliance.Timeline;

/// <summary>Sentences for the timeline and for alerts: "IFI lost after the restart on 3 May 2025".</summary>
public static class TimelineText
{
    public static string Describe(TimelineChange change) => change.Kind switch
    {
        TimelineChangeKind.IfiFlag => $"IFI {(change.After == "Y" ? "gained" : "lost")}{When(change)}",
        TimelineChangeKind.ServiceAccount => $"Service account changed from {change.Before} to {change.After}{When(change)}",
        TimelineChangeKind.AvailabilityFailover => Failover(change),
        TimelineChangeKind.ClusterOwnerMove =>
            $"Failover cluster instance moved from node {change.Before} to {change.After}, seen on {ComplianceFormat.Day(change.SeenAt)}: " +
            "IFI now depends on the right on that node",
        _ => $"Service restarted at {change.After} (previous start {change.Before})",
    };

    static string Failover(TimelineChange change)
    {
        var (group, before) = GroupAndRole(change.Before);
        var (_, after) = GroupAndRole(change.After);
        return $"Availability group {group} failed over: this replica went from {before} to {after}, seen on {ComplianceFormat.Day(change.SeenAt)}";
    }

    /// <summary>An <see cref="TimelineChangeKind.AvailabilityFailover"/> value, "group=ROLE", as its two parts.</summary>
    public static (string Group, string Role) GroupAndRole(string entry) =>
        entry.IndexOf('=') is var i and > 0 ? (entry[..i], entry[(i + 1)..]) : (entry, "?");

    static string When(TimelineChange change) => change.AfterRestartAt is { } restart
        ? $" after the restart on {ComplianceFormat.Day(restart)}"
        : $" between polls, seen on {ComplianceFormat.Day(change.SeenAt)} (no restart seen: check the service start time)";
}
