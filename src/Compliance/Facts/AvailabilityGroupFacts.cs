namespace IfiDashboard.Compliance.Facts;

/// <summary>
/// An availability group the instance hosts a replica of, as its latest good poll read it (store table
/// <c>availability_group_replicas</c>). <see cref="GroupId"/> is the same on every replica: it groups the fleet's.
/// </summary>
public sealed record AvailabilityGroupFacts
{
    public required Guid GroupId { get; init; }
    public required string Name { get; init; }
    /// <summary>PRIMARY, SECONDARY or RESOLVING: this instance's role.</summary>
    public required string LocalRole { get; init; }
    public string? PrimaryReplica { get; init; }
    public bool IsContained { get; init; }
    /// <summary>Every replica's server name (@@SERVERNAME), as sys.availability_replicas lists them.</summary>
    public IReadOnlyList<string> Replicas { get; init; } = [];
    public IReadOnlyList<string> Listeners { get; init; } = [];

    public bool IsPrimary => string.Equals(LocalRole, Shared.Snapshots.AvailabilityRoles.Primary, StringComparison.OrdinalIgnoreCase);

    /// <summary>"orders=SECONDARY;payments=PRIMARY": the roles one poll saw, by group name; null for none.</summary>
    public static string? RolesText(IEnumerable<(string Group, string Role)> roles)
    {
        var ordered = roles.OrderBy(r => r.Group, StringComparer.OrdinalIgnoreCase).Select(r => $"{r.Group}={r.Role}").ToList();
        return ordered.Count == 0 ? null : string.Join(';', ordered);
    }

    /// <summary>The group → role pairs of <see cref="RolesText"/>.</summary>
    public static IReadOnlyDictionary<string, string> ParseRoles(string? text) => (text ?? "")
        .Split(';', StringSplitOptions.RemoveEmptyEntries)
        .Select(entry => entry.Split('=', 2))
        .Where(pair => pair.Length == 2)
        .ToDictionary(pair => pair[0], pair => pair[1], StringComparer.OrdinalIgnoreCase);
}
