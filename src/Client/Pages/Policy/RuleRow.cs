using IfiDashboard.Compliance.Policy;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>One rule as typed in the form: every field a string, so a half-filled row survives a round trip as typed.</summary>
public sealed class RuleRow
{
    public string? Name { get; set; }
    public string? Desired { get; set; }
    public string? Environment { get; set; }
    /// <summary>Separated by ';', as everywhere tags are one text (<see cref="TagText"/>).</summary>
    public string? Tags { get; set; }
    public string? Owner { get; set; }
    /// <summary>Host selectors, each comma-separated (<see cref="HostSelectors"/>): any one value matches.</summary>
    public string? Platforms { get; set; }
    public string? Versions { get; set; }
    public string? Editions { get; set; }
    public string? Clusters { get; set; }

    public static RuleRow From(PolicyRule rule) => new()
    {
        Name = rule.Name,
        Desired = rule.Desired.ToString(),
        Environment = rule.Environment,
        Tags = string.Join(TagText.Separator + " ", rule.Tags),
        Owner = rule.Owner,
        Platforms = string.Join(", ", rule.Platforms),
        Versions = string.Join(", ", rule.Versions),
        Editions = string.Join(", ", rule.Editions),
        Clusters = string.Join(", ", rule.Clusters),
    };

    /// <summary>Whether the row sets no criterion at all, and so matches every instance.</summary>
    public bool MatchesEverything => SplitTags(Tags).Count == 0
        && new[] { Environment, Owner, Platforms, Versions, Editions, Clusters }.All(string.IsNullOrWhiteSpace);

    public static IReadOnlyList<string> SplitTags(string? tags) => TagText.Split(tags);
}
