using System.Globalization;
using IfiDashboard.Shared.Validation;

namespace IfiDashboard.Server.Http;

/// <summary>
/// Query parameters read by hand, so that a bad value is a problem naming the parameter rather than a bare 400 from
/// binding. Each reader adds its message to <see cref="FieldErrors"/> and returns null for a bad or missing value.
/// </summary>
internal static class QueryValues
{
    public static string? Single(IQueryCollection query, string name, FieldErrors errors)
    {
        if (!query.TryGetValue(name, out var values))
            return null;
        if (values.Count == 1)
            return values[0];
        errors.Add(name, "Give it once.");
        return null;
    }

    /// <summary>Free text compared with names, environments, owners and tags: 1–128 characters, no control characters.</summary>
    public static string? Text(IQueryCollection query, string name, FieldErrors errors)
    {
        var value = Single(query, name, errors);
        if (value is null)
            return null;
        if (value.Length is 0 or > TextRules.MaxTextLength || !TextRules.IsPlainText(value))
        {
            errors.Add(name, $"1–{TextRules.MaxTextLength} characters without control, invisible or direction-changing characters.");
            return null;
        }
        return value;
    }

    public static int? Int(IQueryCollection query, string name, int min, int max, FieldErrors errors)
    {
        if (Single(query, name, errors) is not { } text)
            return null;
        if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max)
            return value;
        errors.Add(name, $"A whole number from {min} to {max}.");
        return null;
    }

    public static bool? Bool(IQueryCollection query, string name, FieldErrors errors)
    {
        if (Single(query, name, errors) is not { } text)
            return null;
        if (bool.TryParse(text, out var value))
            return value;
        errors.Add(name, "true or false.");
        return null;
    }
}
