using System.Text.Json.Serialization;

namespace IfiDashboard.Shared.Snapshots;

/// <summary>
/// Everything one poll of one instance learned. <see cref="SnapshotId"/> is chosen by the collector so that a
/// snapshot delivered twice (a retried post, a replayed on-disk queue) is stored once.
/// </summary>
public sealed record InstanceSnapshot
{
    public required Guid SnapshotId { get; init; }
    public required long InstanceId { get; init; }
    public required DateTimeOffset StartedAt { get; init; }
    public required DateTimeOffset FinishedAt { get; init; }
    public required string CollectorName { get; init; }

    /// <summary>
    /// When the collector means to poll the instance next. A standalone collector that sends it has its lease of the
    /// instance completed in the snapshot's own store transaction, as <c>POST /api/v1/collector/leases/{id}/complete</c>
    /// would: one request and one transaction per poll instead of two. Null: the lease is completed by that request.
    /// </summary>
    public DateTimeOffset? NextPollAt { get; init; }
    public InstanceIdentity? Identity { get; init; }
    public IReadOnlyList<ServiceInfo> Services { get; init; } = [];
    public IReadOnlyList<ProbeOutcome> Probes { get; init; } = [];
    /// <summary>The server's offset from UTC when polled (its clock is what the trace and msdb record).</summary>
    public int? ServerUtcOffsetMinutes { get; init; }
    public IReadOnlyList<DatabaseFileInfo> Files { get; init; } = [];
    public IReadOnlyList<DatabaseEncryptionInfo> Encryption { get; init; } = [];
    public DefaultTraceState? DefaultTrace { get; init; }
    public IReadOnlyList<GrowthEventInfo> GrowthEvents { get; init; } = [];
    public IReadOnlyList<BackupInfo> Backups { get; init; } = [];
    /// <summary>Trace flags on globally (DBCC TRACESTATUS(-1)); null when not read.</summary>
    public IReadOnlyList<int>? GlobalTraceFlags { get; init; }

    /// <summary>A failover cluster instance's possible owner nodes, the current owner first; null when not read.</summary>
    public IReadOnlyList<string>? ClusterNodes { get; init; }

    /// <summary>The availability groups this instance hosts a replica of; empty when HADR is off, null when not read.</summary>
    public IReadOnlyList<AvailabilityGroupInfo>? AvailabilityGroups { get; init; }
    /// <summary>"enabled" or "disabled" from the start-up error-log line, read only for builds without the IFI column.</summary>
    public string? StartupIfiLine { get; init; }

    /// <summary>The engine's row, chosen by process id (a LIKE on the name also matches the Agent).</summary>
    [JsonIgnore]
    public ServiceInfo? EngineService => Services.FirstOrDefault(s => s.IsEngine);

    /// <summary>The worst probe outcome: what the instance's poll as a whole is classified as.</summary>
    [JsonIgnore]
    public ProbeOutcome Overall => Probes.Count == 0
        ? new ProbeOutcome(ProbeNames.Connect, OutcomeClass.ProtocolError, "No probe ran.")
        : Probes.OrderByDescending(p => p.Outcome.Severity()).First();
}
