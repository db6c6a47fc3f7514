using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Facts;

/// <summary>What the engine needs to know about one instance: its registration, identity and latest observation.</summary>
public sealed record InstanceFacts
{
    /// <summary>
    /// The instance as registered: its id, name, environment, tags and owner are read from here and held nowhere
    /// else in an assessment, so they cannot disagree.
    /// </summary>
    public required InstanceRegistration Registration { get; init; }

    public long InstanceId => Registration.Id;
    public string Name => Registration.Name;
    public string Environment => Registration.Environment;
    public IReadOnlyList<string> Tags => Registration.Tags;
    public string? Owner => Registration.Owner;

    /// <summary>11 = 2012 ... 17 = 2025; 0 when the identity probe never succeeded.</summary>
    public int MajorVersion { get; init; }

    /// <summary>SERVERPROPERTY('ProductVersion'), e.g. 12.0.5000.0; null when the identity probe never succeeded.</summary>
    public string? ProductVersion { get; init; }

    /// <summary>SERVERPROPERTY('EngineEdition'); null when unknown.</summary>
    public int? EngineEdition { get; init; }

    public HostPlatform Platform { get; init; } = HostPlatform.Windows;

    /// <summary>SERVERPROPERTY('Edition'), e.g. "Standard Edition (64-bit)"; null when the identity probe never succeeded.</summary>
    public string? Edition { get; init; }

    /// <summary>SERVERPROPERTY('MachineName'): tells a local account (MACHINE\user) from a domain one.</summary>
    public string? MachineName { get; init; }

    /// <summary>SERVERPROPERTY('InstanceName'); null for the default instance. Names the Windows service.</summary>
    public string? SqlInstanceName { get; init; }

    /// <summary>The latest poll's view of IFI, with the reason when it could not tell.</summary>
    public required IfiObservation Ifi { get; init; }

    /// <summary>
    /// Why IFI is unknown, when the collector classified it. Null lets the engine fall back on
    /// <see cref="IfiObservation.UnknownReason"/> text.
    /// </summary>
    public OutcomeClass? IfiUnknownCause { get; init; }

    /// <summary>
    /// The policy forbids IFI here (set from the policy decision before growths are judged): zeroing without IFI is
    /// then the policy's cost, never time lost.
    /// </summary>
    public bool IfiForbiddenByPolicy { get; init; }

    /// <summary>
    /// The service holds the privilege (the DMV says 'Y') yet IFI is off: trace flag 1805 or 1806, the only thing the
    /// collector lets override the DMV. Granting the privilege again would change nothing.
    /// </summary>
    public bool IfiOffByTraceFlag { get; init; }

    public DateTimeOffset? LastGoodPollAt { get; init; }
    public TimeSpan PollInterval { get; init; } = TimeSpan.FromMinutes(5);
    public string? EngineServiceAccount { get; init; }
    public DateTimeOffset? ServiceStartedAt { get; init; }

    /// <summary>
    /// How far back the growth evidence reaches: the oldest default-trace event any poll saw (the trace keeps a few
    /// rollover files; older growths were never read). Null when the trace was never read.
    /// </summary>
    public DateTimeOffset? EvidenceSince { get; init; }

    /// <summary>SERVERPROPERTY('IsClustered'): a failover cluster instance, which any of its nodes may run.</summary>
    public bool IsClustered { get; init; }

    /// <summary>
    /// The failover cluster instance's possible owner nodes (sys.dm_os_cluster_nodes), the current owner first;
    /// null when not read (not clustered, or the collector may not read the view).
    /// </summary>
    public IReadOnlyList<string>? ClusterNodes { get; init; }

    /// <summary>The availability groups it hosts a replica of, with its role in each; empty for none or not read.</summary>
    public IReadOnlyList<AvailabilityGroupInfo> AvailabilityGroups { get; init; } = [];

    /// <summary>
    /// Why <see cref="AvailabilityGroups"/> is not known to be complete (the last good poll's availability-groups probe
    /// failed, e.g. "permission missing"); null when that probe read it, or found Always On disabled.
    /// </summary>
    public string? AvailabilityGroupsUnknownReason { get; init; }

    /// <summary>Azure SQL Database (5) and Managed Instance (8): IFI cannot be configured there.</summary>
    public bool IsAzurePaas => EngineEdition is 5 or 8;
}
