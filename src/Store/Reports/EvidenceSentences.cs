using System.Globalization;
using System.Text.Json;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Store.Reports;

/// <summary>
/// The evidence report's policy rules and audited changes in words, for the page and the mail; the JSON they are made
/// from stays in the machine-readable files. The words follow the rules' meaning (src/Compliance/Policy): the first
/// rule that matches decides, a criterion left out matches everything, and no match means IFI is required.
/// </summary>
public static class EvidenceSentences
{
    public static IReadOnlyList<string> Rules(IReadOnlyList<PolicyRule> rules) =>
    [
        .. rules.Select((rule, i) => $"{i + 1}. Rule \"{rule.Name}\": {Desired(rule.Desired)} on {Scope(rule)}."),
        rules.Count == 0
            ? "No rule: IFI is required on every instance (the default)."
            : "An instance no rule matches: IFI is required (the default).",
        "Azure SQL Database and Managed Instance: not applicable whatever the rules say (IFI cannot be set there).",
    ];

    static string Desired(DesiredState desired) => desired switch
    {
        DesiredState.Required => "IFI is required",
        DesiredState.Forbidden => "IFI is forbidden",
        _ => "IFI is not assessed",
    };

    static string Scope(PolicyRule rule)
    {
        var parts = new List<string>();
        if (rule.Environment is not null) parts.Add($"environment {rule.Environment}");
        if (rule.Tags.Count > 0) parts.Add((rule.Tags.Count == 1 ? "tag " : "all the tags ") + string.Join(", ", rule.Tags));
        if (rule.Owner is not null) parts.Add($"owner {rule.Owner}");
        if (rule.Platforms.Count > 0) parts.Add("platform " + string.Join(" or ", rule.Platforms));
        if (rule.Versions.Count > 0) parts.Add("version " + string.Join(" or ", rule.Versions));
        if (rule.Editions.Count > 0) parts.Add("edition " + string.Join(" or ", rule.Editions));
        if (rule.Clusters.Count > 0) parts.Add("cluster membership " + string.Join(" or ", rule.Clusters));
        return parts.Count == 0 ? "every instance (no criterion)" : "instances with " + string.Join(" and ", parts);
    }

    static readonly Dictionary<string, string> Verbs = new(StringComparer.Ordinal)
    {
        [AuditActions.PolicySaved] = "saved",
        [AuditActions.WaiverGranted] = "granted",
        [AuditActions.WaiverRevoked] = "revoked or rejected",
        [AuditActions.WaiverApproved] = "approved",
        [AuditActions.InstanceRegistered] = "registered",
        [AuditActions.InstanceUpdated] = "updated",
        [AuditActions.InstanceRetired] = "retired",
        [AuditActions.ApiKeyIssued] = "issued",
        [AuditActions.ApiKeyRevoked] = "revoked",
        [AuditActions.TestEmailSent] = "sent a test mail:",
        [AuditActions.AlertAcknowledged] = "acknowledged",
        [AuditActions.AlertSnoozed] = "snoozed",
        [AuditActions.AlertSilenced] = "silenced",
        [AuditActions.AlertSilenceEnded] = "ended",
        [AuditActions.AlertSettingsSaved] = "saved the alert settings",
        [AuditActions.SignIn] = "signed in",
        [AuditActions.SignInFailed] = "failed to sign in",
        [AuditActions.CollectorRefused] = "was refused:",
        [AuditActions.RemediationGenerated] = "generated",
    };

    /// <summary>
    /// "<actor> <verb> <target>: <what changed>". A new policy's rules are written out as <see cref="Rules"/>; other
    /// entries list the fields that changed (before and after), or the fields of what was created or removed.
    /// </summary>
    public static string Change(string actor, string action, string? target, string? before, string? after)
    {
        var verb = Verbs.GetValueOrDefault(action, $"did {action} to");
        var head = target is null ? $"{actor} {verb}" : $"{actor} {verb} {target}";
        var details = action == AuditActions.PolicySaved && PolicyRules(after) is { } rules
            ? "the rules became: " + string.Join(" ", Rules(rules))
            : Details(Parse(before), Parse(after));
        return details.Length == 0 ? head + "." : $"{head}: {details}";
    }

    static IReadOnlyList<PolicyRule>? PolicyRules(string? after)
    {
        if (Parse(after) is not { ValueKind: JsonValueKind.Object } root || !root.TryGetProperty("rules", out var rules)) return null;
        try
        {
            return rules.Deserialize<List<PolicyRule>>(StoreJson.Rules);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    static JsonElement? Parse(string? json)
    {
        if (string.IsNullOrWhiteSpace(json)) return null;
        try
        {
            using var document = JsonDocument.Parse(json);
            return document.RootElement.Clone();
        }
        catch (JsonException)
        {
            return JsonSerializer.SerializeToElement(json);
        }
    }

    static string Details(JsonElement? before, JsonElement? after)
    {
        if (before is { ValueKind: JsonValueKind.Object } b && after is { ValueKind: JsonValueKind.Object } a)
        {
            var old = Fields(b);
            var changed = Fields(a).Where(f => old.GetValueOrDefault(f.Key) != f.Value)
                .Select(f => $"{f.Key} from {old.GetValueOrDefault(f.Key) ?? "none"} to {f.Value ?? "none"}")
                .Concat(old.Keys.Except(Fields(a).Keys).Select(k => $"{k} from {old[k]} to none"));
            return Join(changed);
        }
        if (after is { } created) return Join(Describe(created));
        if (before is { } removed) return "it was " + Join(Describe(removed));
        return "";
    }

    static IEnumerable<string> Describe(JsonElement value) => value.ValueKind == JsonValueKind.Object
        ? Fields(value).Where(f => f.Value is not null).Select(f => $"{f.Key} {f.Value}")
        : [Value(value) ?? "none"];

    static Dictionary<string, string?> Fields(JsonElement value) =>
        value.EnumerateObject().ToDictionary(p => Words(p.Name), p => Value(p.Value), StringComparer.Ordinal);

    static string? Value(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.Null or JsonValueKind.Undefined => null,
        JsonValueKind.String => value.GetString(),
        JsonValueKind.True => "yes",
        JsonValueKind.False => "no",
        JsonValueKind.Array => value.GetArrayLength() == 0 ? "none" : string.Join(", ", value.EnumerateArray().Select(v => Value(v) ?? "none")),
        JsonValueKind.Object => "(" + Join(Describe(value)) + ")",
        _ => value.GetRawText(),
    };

    /// <summary>A JSON name in words: <c>expiresAt</c> becomes "expires at".</summary>
    static string Words(string name) => string.Concat(name.Select((c, i) =>
        char.IsUpper(c) && i > 0 ? " " + char.ToLower(c, CultureInfo.InvariantCulture) : c.ToString()));

    static string Join(IEnumerable<string> parts) => string.Join("; ", parts);
}
