namespace IfiDashboard.Shared.Snapshots;

/// <summary>
/// An Always On availability group this instance hosts a replica of, as its HADR views show it
/// (sys.availability_groups, sys.availability_replicas, sys.availability_group_listeners,
/// sys.dm_hadr_availability_group_states, sys.dm_hadr_availability_replica_states). The store keeps the latest good
/// reading per instance, and the compliance engine reads it back as it is.
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
    /// <summary>Every replica's server name (@@SERVERNAME), as sys.availability_replicas lists them, on any replica.</summary>
    public IReadOnlyList<string> Replicas { get; init; } = [];
    /// <summary>The listeners' DNS names: a registration through one reaches whichever replica is primary.</summary>
    public IReadOnlyList<string> Listeners { get; init; } = [];

    public bool IsPrimary => string.Equals(LocalRole, AvailabilityRoles.Primary, StringComparison.OrdinalIgnoreCase);

    /// <summary>"orders=SECONDARY;payments=PRIMARY": the roles one poll saw, by group name; null for none.</summary>
    public static string? RolesText(IEnumerable<AvailabilityGroupInfo>? groups)
    {
        var ordered = (groups ?? []).OrderBy(g => g.Name, StringComparer.OrdinalIgnoreCase).Select(g => $"{g.Name}={g.LocalRole}").ToList();
        return ordered.Count == 0 ? null : string.Join(';', ordered);
    }

    /// <summary>The group → role pairs of <see cref="RolesText"/>.</summary>
    public static IReadOnlyDictionary<string, string> ParseRoles(string? text) => (text ?? "")
        .Split(';', StringSplitOptions.RemoveEmptyEntries)
        .Select(entry => entry.Split('=', 2))
        .Where(pair => pair.Length == 2)
        .ToDictionary(pair => pair[0], pair => pair[1], StringComparer.OrdinalIgnoreCase);
}

public static class AvailabilityRoles
{
    public const string Primary = "PRIMARY";
    public const string Secondary = "SECONDARY";
}
