using IfiDashboard.Compliance.Policy;

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>One rule as typed in the form: every field a string, so a half-filled row survives a round trip as typed.</summary>
public sealed class RuleRow
{
    public string? Name { get; set; }
    public string? Desired { get; set; }
    public string? Environment { get; set; }
    /// <summary>Comma-separated.</summary>
    public string? Tags { get; set; }
    public string? Owner { get; set; }

    public static RuleRow From(PolicyRule rule) => new()
    {
        Name = rule.Name,
        Desired = rule.Desired.ToString(),
        Environment = rule.Environment,
        Tags = string.Join(", ", rule.Tags),
        Owner = rule.Owner,
    };

    public static IReadOnlyList<string> SplitTags(string? tags) =>
        (tags ?? "").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            .Distinct(StringComparer.OrdinalIgnoreCase).ToList();
}
