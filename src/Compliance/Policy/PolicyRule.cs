using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Policy;

/// <summary>
/// One rule of a policy. Every criterion given must match (environment and owner by name, tags all present, all
/// case-insensitive; a host selector by any one of its values, <see cref="HostSelectors"/>); a rule without criteria
/// matches every instance, which makes a catch-all last rule possible.
/// </summary>
public sealed record PolicyRule
{
    public required string Name { get; init; }
    public required DesiredState Desired { get; init; }
    public string? Environment { get; init; }
    public IReadOnlyList<string> Tags { get; init; } = [];
    public string? Owner { get; init; }

    /// <summary>Any of these platforms; empty for every platform.</summary>
    public IReadOnlyList<PolicyPlatform> Platforms { get; init; } = [];

    /// <summary>Any of these releases or ranges ("2016", "2016-2019", "2019+"); empty for every version.</summary>
    public IReadOnlyList<string> Versions { get; init; } = [];

    /// <summary>Any of these editions; empty for every edition.</summary>
    public IReadOnlyList<SqlEdition> Editions { get; init; } = [];

    /// <summary>Any of these memberships; empty for every instance, clustered or not.</summary>
    public IReadOnlyList<ClusterMembership> Clusters { get; init; } = [];

    /// <summary>A method, not a property: the store writes a rule's properties as its JSON.</summary>
    public bool SelectsByHost() => Platforms.Count > 0 || Versions.Count > 0 || Editions.Count > 0 || Clusters.Count > 0;

    public bool Matches(string environment, IReadOnlyCollection<string> tags, string? owner) =>
        (Environment is null || string.Equals(Environment, environment, StringComparison.OrdinalIgnoreCase))
        && (Owner is null || string.Equals(Owner, owner, StringComparison.OrdinalIgnoreCase))
        && Tags.All(required => tags.Contains(required, StringComparer.OrdinalIgnoreCase));

    /// <summary>
    /// Matched against everything known of the instance: no when a criterion that could be read does not match,
    /// undecided when the others match but a selector's fact is unknown (never polled, a probe refused).
    /// </summary>
    public RuleMatch Match(InstanceFacts instance)
    {
        if (!Matches(instance.Environment, instance.Tags.ToList(), instance.Owner)) return RuleMatch.No;
        if (!SelectsByHost()) return RuleMatch.Yes;
        var unevaluated = new List<UnevaluatedSelector>();
        bool Holds(string selector, (bool? Value, string? Unknown) fact)
        {
            if (fact.Value is { } known) return known;
            unevaluated.Add(new UnevaluatedSelector(selector, fact.Unknown ?? "unknown"));
            return true;
        }

        var holds = (Platforms.Count == 0 || Holds(HostSelectors.Platform, Any(HostSelectors.PlatformOf(instance), Platforms)))
            & (Versions.Count == 0 || Holds(HostSelectors.Version, HostSelectors.InVersions(instance, Versions)))
            & (Editions.Count == 0 || Holds(HostSelectors.Edition, Any(HostSelectors.EditionOf(instance), Editions)))
            & (Clusters.Count == 0 || Holds(HostSelectors.Cluster, AnyMembership(instance)));
        if (!holds) return RuleMatch.No;
        return unevaluated.Count == 0 ? RuleMatch.Yes : new RuleMatch(RuleMatchKind.Undecided, unevaluated);
    }

    static (bool? Value, string? Unknown) Any<T>((T? Value, string? Unknown) fact, IReadOnlyList<T> wanted) where T : struct =>
        fact.Value is { } value ? (wanted.Contains(value), null) : (null, fact.Unknown);

    /// <summary>Any listed membership that holds decides; unknown only when none holds and one could not be read.</summary>
    (bool? Value, string? Unknown) AnyMembership(InstanceFacts instance)
    {
        string? unknown = null;
        foreach (var membership in Clusters)
        {
            var (value, why) = HostSelectors.Is(instance, membership);
            if (value == true) return (true, null);
            unknown ??= value is null ? why : null;
        }
        return unknown is null ? (false, null) : (null, unknown);
    }
}

public enum RuleMatchKind
{
    No,
    Yes,
    /// <summary>Every criterion that could be read matches, but a selector's fact is unknown.</summary>
    Undecided,
}

public sealed record RuleMatch(RuleMatchKind Kind, IReadOnlyList<UnevaluatedSelector> Unevaluated)
{
    public static RuleMatch No { get; } = new(RuleMatchKind.No, []);
    public static RuleMatch Yes { get; } = new(RuleMatchKind.Yes, []);
}
