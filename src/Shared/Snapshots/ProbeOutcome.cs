namespace IfiDashboard.Shared.Snapshots;

/// <summary>How one probe of one poll ended. <see cref="Message"/> never carries a secret.</summary>
public sealed record ProbeOutcome(string Probe, OutcomeClass Outcome, string? Message = null, int? SqlErrorNumber = null);

public static class ProbeNames
{
    public const string Connect = "connect";
    public const string Identity = "identity";
    public const string HostInfo = "host-info";
    public const string Services = "services";
    public const string Clock = "clock";
    public const string Files = "files";
    public const string Encryption = "encryption";
    public const string DefaultTrace = "default-trace";
    public const string GrowthEvents = "growth-events";
    public const string Backups = "backups";
    public const string ErrorLog = "errorlog";
    public const string TraceFlags = "trace-flags";
    public const string ClusterNodes = "cluster-nodes";
    public const string AvailabilityGroups = "availability-groups";
    public const string Volumes = "volumes";
}
