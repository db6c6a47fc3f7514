namespace IfiDashboard.Compliance.Timeline;

/// <summary>Sentences for the timeline and for alerts: "IFI lost after the restart on 3 May 2025".</summary>
public static class TimelineText
{
    public static string Describe(TimelineChange change) => change.Kind switch
    {
        TimelineChangeKind.IfiFlag => $"IFI {(change.After == "Y" ? "gained" : "lost")}{When(change)}",
        TimelineChangeKind.ServiceAccount => $"Service account changed from {change.Before} to {change.After}{When(change)}",
        _ => $"Service restarted at {change.After} (previous start {change.Before})",
    };

    static string When(TimelineChange change) => change.AfterRestartAt is { } restart
        ? $" after the restart on {ComplianceFormat.Day(restart)}"
        : $" between polls, seen on {ComplianceFormat.Day(change.SeenAt)} (no restart seen: check the service start time)";
}
