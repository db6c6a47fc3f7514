using System.Globalization;
using IfiDashboard.Client.Components;
using IfiDashboard.Client.Components.Forms;

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>The grant form. The expiry is typed as a UTC date and time (the dashboard's one clock).</summary>
public sealed class WaiverGrant
{
    public const int MaxReasonLength = 2000;

    /// <summary>What a datetime-local input sends; seconds are optional.</summary>
    static readonly string[] ExpiryFormats = ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd"];

    public string? InstanceId { get; set; }
    public string? Reason { get; set; }
    public string? ExpiresAt { get; set; }

    public static string Field(string property) => "Grant." + property;

    /// <summary>The form as it is being filled in, from its fields by name (what the impact preview is sent).</summary>
    public static WaiverGrant FromFields(IReadOnlyDictionary<string, string> fields) => new()
    {
        InstanceId = fields.GetValueOrDefault(Field(nameof(InstanceId))),
        Reason = fields.GetValueOrDefault(Field(nameof(Reason))),
        ExpiresAt = fields.GetValueOrDefault(Field(nameof(ExpiresAt))),
    };

    /// <summary>A fresh form: expiring in a week, at the top of the hour, a sensible default for a change window.</summary>
    public static WaiverGrant Blank(DateTimeOffset now)
    {
        var week = now.UtcDateTime.AddDays(7);
        return new WaiverGrant { ExpiresAt = FormatExpiry(new DateTime(week.Year, week.Month, week.Day, week.Hour, 0, 0, DateTimeKind.Utc)) };
    }

    public static string FormatExpiry(DateTime utc) => utc.ToString("yyyy-MM-dd'T'HH:mm", CultureInfo.InvariantCulture);

    /// <summary>The parsed request, or null with each reason next to its field. The editor checks the rest (the
    /// instance is active, the expiry is in the future) against the store and its own clock.</summary>
    public (long InstanceId, string Reason, DateTimeOffset ExpiresAt)? Validate(FormErrors errors)
    {
        var id = QueryNumber.Id(InstanceId);
        if (id is null)
            errors.Add(Field(nameof(InstanceId)), "Choose the instance the waiver is for.");
        var reason = Reason?.Trim() ?? "";
        if (reason.Length == 0) errors.Add(Field(nameof(Reason)), "Say why: the reason is shown wherever the instance's status is.");
        else if (reason.Length > MaxReasonLength) errors.Add(Field(nameof(Reason)), $"At most {MaxReasonLength} characters.");
        if (!TryParseMoment(ExpiresAt, out var expires))
            errors.Add(Field(nameof(ExpiresAt)), MomentRule);
        return errors.Any || id is not { } instanceId ? null : (instanceId, reason, expires);
    }

    public const string MomentRule = "A UTC date and time, e.g. 2030-06-01T00:00.";

    /// <summary>A UTC date and time as a datetime-local input (or a person) writes it; the dashboard's one clock is UTC.</summary>
    public static bool TryParseMoment(string? text, out DateTimeOffset moment)
    {
        var parsed = DateTime.TryParseExact(text?.Trim(), ExpiryFormats, CultureInfo.InvariantCulture,
            DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var utc);
        moment = parsed ? new DateTimeOffset(utc, TimeSpan.Zero) : default;
        return parsed;
    }

    /// <summary>The form field an editor's <see cref="ArgumentException.ParamName"/> is about.</summary>
    public static string FieldOf(ArgumentException refused) => refused.ParamName switch
    {
        "expiresAt" => Field(nameof(ExpiresAt)),
        "reason" => Field(nameof(Reason)),
        _ => Field(nameof(InstanceId)),
    };

    /// <summary>The editor's sentence without the " (Parameter 'x')" suffix .NET appends.</summary>
    public static string MessageOf(ArgumentException refused) =>
        refused.ParamName is { } name ? refused.Message.Replace($" (Parameter '{name}')", "", StringComparison.Ordinal) : refused.Message;
}
