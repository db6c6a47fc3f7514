using System.Net;
using System.Text.Json.Serialization;
using IfiDashboard.Shared.Validation;

namespace IfiDashboard.Shared.Inventory;

/// <summary>What an assignment rule matches an instance by.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<AssignmentMatch>))]
public enum AssignmentMatch
{
    /// <summary>Every instance: a last rule that leaves nothing unassigned.</summary>
    All,
    Environment,
    Tag,
    /// <summary>The instance's host, when it is an IP address, inside one of the CIDR networks.</summary>
    Network,
    /// <summary>Explicit instances, by the dashboard's name or the CMDB's key.</summary>
    Instances,
}

/// <summary>
/// One assignment rule: the instances it matches are leased only by the collectors it names. Several collectors are a
/// group: one polls an instance, the others stand by and take it over when that one falls silent.
/// </summary>
public sealed record CollectorAssignment(AssignmentMatch Match, IReadOnlyList<string> Values, IReadOnlyList<string> Collectors);

/// <summary>What an assignment rule matches against: the registration's fields the rules read.</summary>
public sealed record AssignableInstance(string Name, string? ExternalKey, string Environment, IReadOnlyList<string> Tags, string Host);

/// <summary>How many active instances each rule of a list assigns, and which are left unassigned (the first names only).</summary>
public sealed record AssignmentPreview(IReadOnlyList<AssignmentRuleCount> Rules, long Unassigned, IReadOnlyList<string> UnassignedNames);

/// <summary>One rule of a preview: from configuration (read-only) or saved, and the instances it assigns.</summary>
public sealed record AssignmentRuleCount(CollectorAssignment Rule, bool Configured, long Instances);

/// <summary>A rule that breaks the rule set: <c>rules[2].values[0]</c> as problem details name it, and the form's line.</summary>
public sealed record AssignmentError(int Rule, string Field, string Message)
{
    public string Path => $"rules[{Rule}].{Field}";
}

/// <summary>
/// The one rule set for collector assignments, applied by the API, the collectors page and the configuration
/// (<c>Assignments:Rules</c>), and the one way an instance is matched: the first rule that matches assigns it; an
/// instance no rule matches is unassigned and leased as without rules (it stays with the collector that polled it last).
/// Environments and tags compare ignoring case, as the policy's do.
/// </summary>
public static class CollectorAssignments
{
    public const int MaxRules = 200;
    public const int MaxValues = 500;
    public const int MaxCollectors = 20;

    /// <summary>Every broken rule, in order; empty when the list may be saved.</summary>
    public static IReadOnlyList<AssignmentError> Check(IReadOnlyList<CollectorAssignment?>? rules)
    {
        var errors = new List<AssignmentError>();
        if (rules is null)
            return [new(0, "rules", "Required (an empty list removes every rule).")];
        if (rules.Count > MaxRules)
            return [new(0, "rules", $"At most {MaxRules} rules.")];
        for (var i = 0; i < rules.Count; i++)
        {
            if (rules[i] is not { } rule)
            {
                errors.Add(new(i, "match", "Required."));
                continue;
            }
            if (!Enum.IsDefined(rule.Match))
                errors.Add(new(i, "match", $"One of {string.Join(", ", Enum.GetNames<AssignmentMatch>())}."));
            var values = rule.Values ?? [];
            if (rule.Match == AssignmentMatch.All && values.Count > 0)
                errors.Add(new(i, "values", "A rule for all instances takes no values."));
            else if (rule.Match != AssignmentMatch.All && values.Count == 0)
                errors.Add(new(i, "values", $"At least one {ValueName(rule.Match)}."));
            else if (values.Count > MaxValues)
                errors.Add(new(i, "values", $"At most {MaxValues} values."));
            else
                for (var v = 0; v < values.Count; v++)
                    if (ValueError(rule.Match, values[v]) is { } message)
                        errors.Add(new(i, $"values[{v}]", message));
            var collectors = rule.Collectors ?? [];
            if (collectors.Count is 0 or > MaxCollectors)
                errors.Add(new(i, "collectors", $"1–{MaxCollectors} collector names (Collector:Name): one collector, or a group whose others stand by."));
            else
                for (var c = 0; c < collectors.Count; c++)
                    if (string.IsNullOrEmpty(collectors[c]) || !TextRules.DisplayName().IsMatch(collectors[c]))
                        errors.Add(new(i, $"collectors[{c}]", $"A collector's Collector:Name: {TextRules.DisplayNameRule}"));
                    else if (collectors.Take(c).Contains(collectors[c], StringComparer.Ordinal))
                        errors.Add(new(i, $"collectors[{c}]", "Named twice."));
        }
        return errors;
    }

    static string ValueName(AssignmentMatch match) => match switch
    {
        AssignmentMatch.Environment => "environment",
        AssignmentMatch.Tag => "tag",
        AssignmentMatch.Network => "network (CIDR, such as 10.20.0.0/16)",
        _ => "instance name or CMDB key",
    };

    static string? ValueError(AssignmentMatch match, string? value)
    {
        if (value is null || !TextRules.IsTrimmedPlainText(value, TextRules.MaxTextLength))
            return $"1–{TextRules.MaxTextLength} characters without control, invisible or direction-changing characters or surrounding spaces.";
        if (value.Contains(',') || value.Contains("->", StringComparison.Ordinal))
            return "No ',' or '->' (they separate values and collectors on the collectors page).";
        return match == AssignmentMatch.Network && !IsNetwork(value)
            ? "A network in CIDR notation, such as 10.20.0.0/16 or fd00::/8, with no bits set after the prefix."
            : null;
    }

    /// <summary>Address/prefix with the address the network's own: <c>10.20.0.1/16</c> is a typo, not <c>10.20.0.0/16</c>.</summary>
    static bool IsNetwork(string value) =>
        value.IndexOf('/') is > 0 and var slash
        && IPAddress.TryParse(value[..slash], out var address)
        && IPNetwork.TryParse(value, out var network)
        && network.BaseAddress.Equals(address);

    /// <summary>The index of the first rule that matches, or null when none does (the instance is unassigned).</summary>
    public static int? RuleFor(IReadOnlyList<CollectorAssignment> rules, AssignableInstance instance)
    {
        for (var i = 0; i < rules.Count; i++)
            if (Matches(rules[i], instance))
                return i;
        return null;
    }

    static bool Matches(CollectorAssignment rule, AssignableInstance instance) => rule.Match switch
    {
        AssignmentMatch.All => true,
        AssignmentMatch.Environment => rule.Values.Contains(instance.Environment, StringComparer.OrdinalIgnoreCase),
        AssignmentMatch.Tag => instance.Tags.Any(t => rule.Values.Contains(t, StringComparer.OrdinalIgnoreCase)),
        AssignmentMatch.Network => IPAddress.TryParse(instance.Host.Trim('[', ']'), out var address)
                                   && rule.Values.Any(v => IPNetwork.TryParse(v, out var network) && network.Contains(address)),
        AssignmentMatch.Instances => rule.Values.Any(v => string.Equals(v, instance.Name, StringComparison.OrdinalIgnoreCase)
                                                          || string.Equals(v, instance.ExternalKey, StringComparison.Ordinal)),
        _ => false,
    };

    /// <summary>
    /// The collectors page's text form of a rule list, one rule a line: <c>environment: Production, UAT -> paris-a, paris-b</c>,
    /// <c>network: 10.20.0.0/16 -> paris-a</c>, <c>instances: SQL01, CI0042 -> london</c>, <c>all -> london</c>.
    /// </summary>
    public static string Format(IReadOnlyList<CollectorAssignment> rules) => string.Join('\n', rules.Select(r =>
        (r.Match == AssignmentMatch.All ? "all" : $"{r.Match.ToString().ToLowerInvariant()}: {string.Join(", ", r.Values)}")
        + " -> " + string.Join(", ", r.Collectors)));

    /// <summary>Reads <see cref="Format"/>'s text; a line it cannot read is an error on that rule. Blank lines and <c>#</c> comments are skipped.</summary>
    public static (IReadOnlyList<CollectorAssignment> Rules, IReadOnlyList<AssignmentError> Errors) Parse(string? text)
    {
        var rules = new List<CollectorAssignment>();
        var errors = new List<AssignmentError>();
        foreach (var raw in (text ?? "").Split('\n'))
        {
            var line = raw.Trim();
            if (line.Length == 0 || line.StartsWith('#'))
                continue;
            var arrow = line.IndexOf("->", StringComparison.Ordinal);
            var head = arrow < 0 ? line : line[..arrow].Trim();
            var colon = head.IndexOf(':');
            var kind = (colon < 0 ? head : head[..colon]).Trim();
            if (arrow < 0 || !Enum.TryParse<AssignmentMatch>(kind, ignoreCase: true, out var match) || !Enum.IsDefined(match)
                || kind.Any(char.IsAsciiDigit))
            {
                errors.Add(new(rules.Count, "match", $"Line '{Truncate(line)}': write <all|environment|tag|network|instances>: <values, comma-separated> -> <collectors, comma-separated>."));
                rules.Add(new(AssignmentMatch.All, [], []));
                continue;
            }
            rules.Add(new(match, colon < 0 ? [] : Split(head[(colon + 1)..]), Split(line[(arrow + 2)..])));
        }
        return (rules, errors);
    }

    static string[] Split(string list) => [.. list.Split(',').Select(v => v.Trim()).Where(v => v.Length > 0)];

    static string Truncate(string line) => line.Length <= 60 ? line : line[..60] + "…";
}
