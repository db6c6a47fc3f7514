namespace IfiDashboard.Shared.Snapshots;

/// <summary>The span tags the collector's poll and the server's storing of its snapshot both set, under one name.</summary>
public static class TelemetryTags
{
    public const string InstanceId = "ifi.instance.id";
    public const string Outcome = "ifi.outcome";
}
