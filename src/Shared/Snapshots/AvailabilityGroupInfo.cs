namespace IfiDashboard.Shared.Snapshots;

/// <summary>
/// An Always On availability group this instance hosts a replica of, as its HADR views show it
/// (sys.availability_groups, sys.availability_replicas, sys.availability_group_listeners,
/// sys.dm_hadr_availability_group_states, sys.dm_hadr_availability_replica_states).
/// </summary>
public sealed record AvailabilityGroupInfo
{
    /// <summary>sys.availability_groups.group_id: the same on every replica, so it groups the fleet's replicas.</summary>
    public required Guid GroupId { get; init; }
    public required string Name { get; init; }
    /// <summary>This instance's role: PRIMARY, SECONDARY or RESOLVING (role_desc of its local replica row).</summary>
    public required string LocalRole { get; init; }
    /// <summary>The primary replica's server name (dm_hadr_availability_group_states.primary_replica).</summary>
    public string? PrimaryReplica { get; init; }
    /// <summary>A contained availability group (2022+): its logins and grants live in the group's own master.</summary>
    public bool IsContained { get; init; }
    public IReadOnlyList<AvailabilityReplicaInfo> Replicas { get; init; } = [];
    /// <summary>The listeners' DNS names: a registration through one reaches whichever replica is primary.</summary>
    public IReadOnlyList<string> Listeners { get; init; } = [];

    public bool IsPrimary => LocalRole == AvailabilityRoles.Primary;
}

/// <summary>One replica of a group as sys.availability_replicas lists it (every replica, seen from any of them).</summary>
public sealed record AvailabilityReplicaInfo(string ServerName, string AvailabilityMode, string FailoverMode, bool IsLocal);

public static class AvailabilityRoles
{
    public const string Primary = "PRIMARY";
    public const string Secondary = "SECONDARY";
}
