namespace IfiDashboard.Compliance.Policy;

/// <summary>
/// The rules and waivers in force, as one versioned document: a status can name the policy version it was judged
/// against, so a change of policy is never mistaken for a change on the instance.
/// </summary>
public sealed record PolicyDocument
{
    public required int Version { get; init; }

    /// <summary>Ordered: the first rule that matches decides.</summary>
    public IReadOnlyList<PolicyRule> Rules { get; init; } = [];

    public IReadOnlyList<Waiver> Waivers { get; init; } = [];

    public static PolicyDocument Empty { get; } = new() { Version = 0 };
}
