using IfiDashboard.Shared.Inventory;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Compliance.Policy;

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>
/// The rules form. Adding, removing and moving rules are round trips that change only this draft (the page works
/// without script); nothing is stored until "save", which makes the draft a new policy version.
/// </summary>
public sealed class RulesDraft
{
    public const int MaxRules = 50;
    public const int MaxNameLength = 128;
    public const string Save = "save";
    public const string Add = "add";

    List<RuleRow> _rules = [];

    /// <summary>Never null: a posted form with no rule rows binds the list as null.</summary>
    public List<RuleRow> Rules
    {
        get => _rules;
        set => _rules = value ?? [];
    }

    /// <summary>The submit button pressed: "save", "add", or "up:i", "down:i", "remove:i" for row i.</summary>
    public string? Command { get; set; }

    public static RulesDraft From(PolicyDocument document) => new() { Rules = document.Rules.Select(RuleRow.From).ToList() };

    public static string Field(int index, string property) => $"Draft.Rules[{index}].{property}";

    /// <summary>The draft as the form holds it, from its fields by name (what the impact preview is sent as it is edited).</summary>
    public static RulesDraft FromFields(IReadOnlyDictionary<string, string> fields)
    {
        var draft = new RulesDraft();
        for (var i = 0; fields.ContainsKey(Field(i, nameof(RuleRow.Name))) || fields.ContainsKey(Field(i, nameof(RuleRow.Desired))); i++)
        {
            draft.Rules.Add(new RuleRow
            {
                Name = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Name))),
                Desired = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Desired))),
                Environment = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Environment))),
                Tags = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Tags))),
                Owner = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Owner))),
                Platforms = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Platforms))),
                Versions = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Versions))),
                Editions = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Editions))),
                Clusters = fields.GetValueOrDefault(Field(i, nameof(RuleRow.Clusters))),
            });
        }
        return draft;
    }

    /// <summary>Applies an edit command; false when the command is "save" (or unknown), which the caller handles.</summary>
    public bool TryEdit(FormErrors errors)
    {
        if (Command == Add)
        {
            if (Rules.Count >= MaxRules) errors.Add("Draft.Rules", $"A policy has at most {MaxRules} rules.");
            else Rules.Add(new RuleRow());
            return true;
        }
        var parts = (Command ?? "").Split(':');
        if (parts.Length != 2 || !int.TryParse(parts[1], out var i) || i < 0 || i >= Rules.Count) return false;
        switch (parts[0])
        {
            case "remove":
                Rules.RemoveAt(i);
                return true;
            case "up" when i > 0:
                (Rules[i - 1], Rules[i]) = (Rules[i], Rules[i - 1]);
                return true;
            case "down" when i < Rules.Count - 1:
                (Rules[i + 1], Rules[i]) = (Rules[i], Rules[i + 1]);
                return true;
            default:
                return parts[0] is "up" or "down";
        }
    }

    /// <summary>The rules to save, or null with the reasons next to each field.</summary>
    public IReadOnlyList<PolicyRule>? Validate(FormErrors errors)
    {
        if (Rules.Count > MaxRules) errors.Add("Draft.Rules", $"A policy has at most {MaxRules} rules; remove {Rules.Count - MaxRules}.");
        var rules = new List<PolicyRule>();
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < Rules.Count; i++)
        {
            var row = Rules[i];
            var name = row.Name?.Trim() ?? "";
            if (name.Length == 0) errors.Add(Field(i, "Name"), "A rule needs a name: statuses quote it (\"policy 'prod' requires it\").");
            else if (name.Length > MaxNameLength) errors.Add(Field(i, "Name"), $"At most {MaxNameLength} characters.");
            // Explanations name the rule that decided, so two rules with one name would be told apart by nobody.
            else if (!names.Add(name)) errors.Add(Field(i, "Name"), $"Another rule is already named '{name}'.");
            if (!Enum.TryParse<DesiredState>(row.Desired, ignoreCase: false, out var desired) || !Enum.IsDefined(desired))
                errors.Add(Field(i, "Desired"), "Choose the desired state.");
            var tags = RuleRow.SplitTags(row.Tags);
            if (TagText.Error(row.Tags) is { } separator) errors.Add(Field(i, "Tags"), separator);
            else if (tags.Any(t => t.Length > 64)) errors.Add(Field(i, "Tags"), $"Tags are at most 64 characters each, separated by '{TagText.Separator}'.");
            // The engine's one rule set for host selectors names the bad value; the field names where it was typed.
            var platforms = Selector(errors, i, nameof(RuleRow.Platforms), HostSelectors.ParseList<PolicyPlatform>(row.Platforms, out var error), error);
            var versions = Selector(errors, i, nameof(RuleRow.Versions), HostSelectors.ParseVersions(row.Versions, out error), error);
            var editions = Selector(errors, i, nameof(RuleRow.Editions), HostSelectors.ParseList<SqlEdition>(row.Editions, out error), error);
            var clusters = Selector(errors, i, nameof(RuleRow.Clusters), HostSelectors.ParseList<ClusterMembership>(row.Clusters, out error), error);
            if (HostSelectors.AzureRefusal(desired, platforms) is { } azure) errors.Add(Field(i, nameof(RuleRow.Platforms)), azure);
            rules.Add(new PolicyRule
            {
                Name = name,
                Desired = desired,
                Environment = Blank(row.Environment),
                Tags = tags,
                Owner = Blank(row.Owner),
                Platforms = platforms,
                Versions = versions,
                Editions = editions,
                Clusters = clusters,
            });
        }
        return errors.Any ? null : rules;
    }

    static IReadOnlyList<T> Selector<T>(FormErrors errors, int index, string property, IReadOnlyList<T>? values, string? error)
    {
        if (error is not null) errors.Add(Field(index, property), error);
        // The same empty list as a rule without the selector, so that a rule is equal to itself read back.
        return values is { Count: > 0 } ? values : [];
    }

    /// <summary>Rules placed after one that matches everything can never decide anything.</summary>
    public static int? UnreachableAfter(IReadOnlyList<RuleRow> rules, int index)
    {
        for (var i = 0; i < index; i++)
            if (rules[i].MatchesEverything) return i;
        return null;
    }

    static string? Blank(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();
}
