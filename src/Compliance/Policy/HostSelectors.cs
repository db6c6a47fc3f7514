using System.Globalization;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Policy;

/// <summary>What a rule's platform selector names: the host's operating system, or the Azure product.</summary>
public enum PolicyPlatform
{
    Windows,
    Linux,
    AzureSqlDatabase,
    AzureSqlManagedInstance,
}

/// <summary>What a rule's edition selector names, from SERVERPROPERTY('Edition').</summary>
public enum SqlEdition
{
    Enterprise,
    Standard,
    Developer,
    Express,
    Web,
    Evaluation,
    BusinessIntelligence,
}

/// <summary>What a rule's cluster selector names: an instance may be several (an FCI that hosts an AG replica).</summary>
public enum ClusterMembership
{
    /// <summary>Neither a failover cluster instance nor an availability group replica.</summary>
    Standalone,
    FailoverCluster,
    AvailabilityGroupReplica,
    AvailabilityGroupPrimary,
    AvailabilityGroupSecondary,
}

/// <summary>A selector a rule could not evaluate on an instance, because the fact it reads is unknown, and why.</summary>
public sealed record UnevaluatedSelector(string Selector, string Reason)
{
    public override string ToString() => $"{Selector} ({Reason})";
}

/// <summary>
/// The one rule set for a policy rule's host selectors (platform, major version, edition, cluster membership): which
/// values a rule may name, and which collected fact each one reads (docs/compliance.md, "Selecting by what a host is").
/// A fact no good poll has read is unknown, never guessed: the rule is then <see cref="RuleMatch.Undecided"/>.
/// </summary>
public static class HostSelectors
{
    public const string Platform = "platform";
    public const string Version = "version";
    public const string Edition = "edition";
    public const string Cluster = "cluster";

    /// <summary>Release year by major version, the names a version selector uses.</summary>
    static readonly IReadOnlyList<(int Year, int Major)> Releases =
        [(2012, 11), (2014, 12), (2016, 13), (2017, 14), (2019, 15), (2022, 16), (2025, 17)];

    const string IdentityUnread = "no good poll has read the instance's identity yet";

    /// <summary>The instance's platform; null with the reason when unknown.</summary>
    public static (PolicyPlatform? Value, string? Unknown) PlatformOf(InstanceFacts instance) => instance switch
    {
        { EngineEdition: 5 } => (PolicyPlatform.AzureSqlDatabase, null),
        { EngineEdition: 8 } => (PolicyPlatform.AzureSqlManagedInstance, null),
        { ProductVersion: null } => (null, IdentityUnread),
        { Platform: HostPlatform.Windows } => (PolicyPlatform.Windows, null),
        { Platform: HostPlatform.Linux } => (PolicyPlatform.Linux, null),
        _ => (null, "sys.dm_os_host_info reported a platform the dashboard does not know"),
    };

    /// <summary>The edition SERVERPROPERTY('Edition') names ("Enterprise Edition: Core-based Licensing (64-bit)").</summary>
    public static (SqlEdition? Value, string? Unknown) EditionOf(InstanceFacts instance)
    {
        if (instance.Edition is not { } edition) return (null, IdentityUnread);
        // "Enterprise Evaluation Edition" is Evaluation, not Enterprise: the longer names are tried first.
        if (edition.StartsWith("Enterprise Evaluation", StringComparison.OrdinalIgnoreCase)) return (SqlEdition.Evaluation, null);
        if (edition.StartsWith("Business Intelligence", StringComparison.OrdinalIgnoreCase)) return (SqlEdition.BusinessIntelligence, null);
        foreach (var value in Enum.GetValues<SqlEdition>())
            if (edition.StartsWith(value.ToString(), StringComparison.OrdinalIgnoreCase))
                return (value, null);
        return (null, $"the edition '{edition}' is none the selector names");
    }

    /// <summary>Whether the instance is each membership; null with the reason when the fact it needs is unknown.</summary>
    public static (bool? Value, string? Unknown) Is(InstanceFacts instance, ClusterMembership membership)
    {
        if (instance.ProductVersion is null) return (null, IdentityUnread);
        var groups = instance.AvailabilityGroupsUnknownReason;
        return membership switch
        {
            ClusterMembership.FailoverCluster => (instance.IsClustered, null),
            _ when groups is not null && !(membership == ClusterMembership.Standalone && instance.IsClustered) =>
                (null, $"availability groups not read: {groups}"),
            ClusterMembership.Standalone => (!instance.IsClustered && instance.AvailabilityGroups.Count == 0, null),
            ClusterMembership.AvailabilityGroupReplica => (instance.AvailabilityGroups.Count > 0, null),
            ClusterMembership.AvailabilityGroupPrimary => (instance.AvailabilityGroups.Any(g => g.IsPrimary), null),
            _ => (instance.AvailabilityGroups.Any(g =>
                string.Equals(g.LocalRole, AvailabilityRoles.Secondary, StringComparison.OrdinalIgnoreCase)), null),
        };
    }

    /// <summary>Whether the instance's major version is in one of the ranges; null with the reason when unknown.</summary>
    public static (bool? Value, string? Unknown) InVersions(InstanceFacts instance, IReadOnlyList<string> ranges)
    {
        if (instance.MajorVersion == 0) return (null, IdentityUnread);
        return (ranges.Any(r => TryParseRange(r, out var from, out var to, out _) && from <= instance.MajorVersion
                                && instance.MajorVersion <= to), null);
    }

    /// <summary>
    /// One value list of a rule as typed ("Linux, Windows"): the values, or the message naming the first bad one.
    /// Names are matched ignoring case, spaces and hyphens ("Azure SQL Database" is AzureSqlDatabase).
    /// </summary>
    public static IReadOnlyList<T>? ParseList<T>(string? text, out string? error) where T : struct, Enum
    {
        var values = new List<T>();
        foreach (var item in Split(text))
        {
            var name = item.Replace(" ", "", StringComparison.Ordinal).Replace("-", "", StringComparison.Ordinal);
            if (name.Any(c => !char.IsAsciiLetter(c)) || !Enum.TryParse<T>(name, ignoreCase: true, out var value) || !Enum.IsDefined(value))
            {
                error = $"'{item}' is not one of {string.Join(", ", Enum.GetNames<T>())}.";
                return null;
            }
            if (!values.Contains(value)) values.Add(value);
        }
        error = null;
        return values;
    }

    /// <summary>Version ranges as typed ("2016, 2019-2022, 2025+"), normalized, or the message naming the first bad one.</summary>
    public static IReadOnlyList<string>? ParseVersions(string? text, out string? error)
    {
        var ranges = new List<string>();
        foreach (var item in Split(text))
        {
            if (!TryParseRange(item, out _, out _, out var normalized))
            {
                error = $"'{item}' is not a release ({string.Join(", ", Releases.Select(r => r.Year))}), a range of two " +
                        "(2016-2019, the first not after the second) or a release and later (2019+).";
                return null;
            }
            if (!ranges.Contains(normalized)) ranges.Add(normalized);
        }
        error = null;
        return ranges;
    }

    /// <summary>A rule cannot require or forbid IFI where nobody can set it: the platform decides there first.</summary>
    public static string? AzureRefusal(DesiredState desired, IReadOnlyList<PolicyPlatform> platforms) =>
        desired != DesiredState.NotApplicable
        && platforms.Any(p => p is PolicyPlatform.AzureSqlDatabase or PolicyPlatform.AzureSqlManagedInstance)
            ? "Azure SQL Database and Managed Instance are always not applicable (IFI cannot be set there): a rule " +
              "naming them can only be 'not applicable'."
            : null;

    /// <summary>"2016" (13 to 13), "2016-2019" (13 to 15), "2019+" (15 and every later major).</summary>
    static bool TryParseRange(string text, out int from, out int to, out string normalized)
    {
        (from, to, normalized) = (0, 0, "");
        var item = text.Replace(" ", "", StringComparison.Ordinal);
        if (item.EndsWith('+') && Major(item[..^1]) is { } open)
        {
            (from, to, normalized) = (open, int.MaxValue, $"{item[..^1]}+");
            return true;
        }
        var parts = item.Split('-');
        if (parts.Length == 1 && Major(parts[0]) is { } single)
        {
            (from, to, normalized) = (single, single, parts[0]);
            return true;
        }
        if (parts.Length == 2 && Major(parts[0]) is { } first && Major(parts[1]) is { } last && first <= last)
        {
            (from, to, normalized) = (first, last, $"{parts[0]}-{parts[1]}");
            return true;
        }
        return false;
    }

    static int? Major(string year)
    {
        foreach (var (releaseYear, major) in Releases)
            if (year == releaseYear.ToString(CultureInfo.InvariantCulture))
                return major;
        return null;
    }

    static IEnumerable<string> Split(string? text) =>
        (text ?? "").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
}
