using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Validation;

namespace IfiDashboard.Shared.Alerts;

/// <summary>How a person quietened an instance's alerts.</summary>
public enum SilenceKind
{
    /// <summary>"I am on it": one instance, until its alert resolves (or <see cref="AlertSilence.MaxDuration"/> passes).</summary>
    Acknowledgement,

    /// <summary>One instance, for a period the person chose (4 h, 1 d, 7 d, or until a moment).</summary>
    Snooze,

    /// <summary>A scope (one instance, an environment or a tag) until an expiry: a maintenance window, a migration.</summary>
    Silence,
}

/// <summary>
/// One silence as stored. While it is active (not ended, not expired) no mail or webhook goes out for the alerts of
/// the instances it covers; the evaluation still records them in the history, marked silenced.
/// </summary>
public sealed record AlertSilence
{
    /// <summary>The longest a silence may last: nothing is silenced for good by a forgotten form.</summary>
    public static readonly TimeSpan MaxDuration = TimeSpan.FromDays(30);

    public const int MaxReasonLength = 500;

    public long Id { get; init; }
    public required SilenceKind Kind { get; init; }
    public long? InstanceId { get; init; }
    public string? Environment { get; init; }
    public string? Tag { get; init; }
    public required string Reason { get; init; }
    public required string CreatedBy { get; init; }
    public required DateTimeOffset CreatedAt { get; init; }
    public required DateTimeOffset ExpiresAt { get; init; }
    public DateTimeOffset? EndedAt { get; init; }
    public string? EndedBy { get; init; }

    public bool IsActiveAt(DateTimeOffset now) => EndedAt is null && ExpiresAt > now;

    /// <summary>Environment and tag compare case-insensitively, as the alert routes do.</summary>
    public bool Covers(InstanceRegistration instance) =>
        InstanceId is { } id ? id == instance.Id
        : Environment is { } environment ? string.Equals(environment, instance.Environment, StringComparison.OrdinalIgnoreCase)
        : Tag is { } tag && instance.Tags.Contains(tag, StringComparer.OrdinalIgnoreCase);

    /// <summary>What it covers, in words: "instance sql01", "environment Test", "tag pci".</summary>
    public string Scope(string? instanceName = null) => ScopeOf(InstanceId, instanceName, Environment, Tag);

    /// <summary><see cref="Scope"/> of a silence asked for, before it is stored.</summary>
    public static string ScopeOf(long? instanceId, string? instanceName, string? environment, string? tag) =>
        instanceId is { } id ? $"instance {instanceName ?? "#" + id}"
        : environment is not null ? $"environment {environment}"
        : $"tag {tag}";
}

/// <summary>
/// The one rule set for a new silence, on every path: exactly one scope, a reason a person reads, an expiry in the
/// future and within <see cref="AlertSilence.MaxDuration"/>. Text follows the inventory's rule
/// (<see cref="TextRules.IsTrimmedPlainText"/>): no control, invisible or direction-changing characters, which could
/// make the alerts page or the audit log show a reason other than the one stored.
/// </summary>
public static class SilenceRules
{
    /// <summary>The first broken rule as (field, message), or null when the silence may be stored.</summary>
    public static (string Field, string Message)? Check(AlertSilence silence, DateTimeOffset now)
    {
        var scopes = (silence.InstanceId is null ? 0 : 1) + (silence.Environment is null ? 0 : 1) + (silence.Tag is null ? 0 : 1);
        if (scopes != 1)
            return ("scope", "Choose one scope: an instance, an environment or a tag.");
        if (silence.Kind != SilenceKind.Silence && silence.InstanceId is null)
            return ("scope", "An acknowledgement or a snooze is for one instance.");
        if (silence.InstanceId is <= 0)
            return ("scope", "Choose the instance.");
        if (silence.Environment is { } environment && !TextRules.IsTrimmedPlainText(environment, TextRules.MaxTextLength))
            return ("environment", $"1–{TextRules.MaxTextLength} characters without control, invisible or direction-changing characters or surrounding spaces.");
        if (silence.Tag is { } tag && !TextRules.IsTrimmedPlainText(tag, InstanceRules.MaxTagLength))
            return ("tag", $"1–{InstanceRules.MaxTagLength} characters without control, invisible or direction-changing characters or surrounding spaces.");
        if (!TextRules.IsTrimmedPlainText(silence.Reason, AlertSilence.MaxReasonLength))
            return ("reason", $"Say why, in 1–{AlertSilence.MaxReasonLength} characters without control, invisible or direction-changing characters: the reason is shown with the silence.");
        if (silence.ExpiresAt <= now)
            return ("expiresAt", "The end must be in the future.");
        if (silence.ExpiresAt > now + AlertSilence.MaxDuration)
            return ("expiresAt", $"At most {AlertSilence.MaxDuration.TotalDays:0} days from now.");
        return null;
    }
}
