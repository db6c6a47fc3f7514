namespace IfiDashboard.Compliance.Policy;

/// <summary>
/// One rule of a policy. Every criterion given must match (environment and owner by name, tags all present, all
/// case-insensitive); a rule without criteria matches every instance, which makes a catch-all last rule possible.
/// </summary>
public sealed record PolicyRule
{
    public required string Name { get; init; }
    public required DesiredState Desired { get; init; }
    public string? Environment { get; init; }
    public IReadOnlyList<string> Tags { get; init; } = [];
    public string? Owner { get; init; }

    public bool Matches(string environment, IReadOnlyCollection<string> tags, string? owner) =>
        (Environment is null || string.Equals(Environment, environment, StringComparison.OrdinalIgnoreCase))
        && (Owner is null || string.Equals(Owner, owner, StringComparison.OrdinalIgnoreCase))
        && Tags.All(required => tags.Contains(required, StringComparer.OrdinalIgnoreCase));
}
