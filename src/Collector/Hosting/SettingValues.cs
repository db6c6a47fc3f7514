using System.Text.RegularExpressions;
using IfiDashboard.Shared.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;

namespace IfiDashboard.Collector.Hosting;

/// <summary>
/// The rules every setting of both deployables follows, whichever section reads it: no inline comment, and a value
/// that cannot be read as its type is reported as one line naming the setting (never the value, which may be a
/// secret). Ranges and the rest are each section's own <c>ValidateOnStart</c>.
/// </summary>
public static partial class SettingValues
{
    /// <summary>The settings' top-level sections and names (README's configuration table); others are not ours to judge.</summary>
    static readonly string[] Sections =
    [
        "Urls", "AllowedHosts", "Store", "Collector", "Credentials", "Ingestion", "TestConnection", "BulkRegistration",
        "VerifyNow", "Compliance", "Auth", "DataProtection", "Alerts", "Reports", "Retention", "Api", "Logging", "Kestrel",
        "Assignments", "Prometheus",
    ];

    /// <summary>
    /// systemd's EnvironmentFile and docker's env files keep everything after '=' as the value, so a comment written
    /// after a setting (<c>Collector__Enabled=false   # the standalone collectors poll</c>) becomes part of it, and
    /// the setting is then either refused later with a confusing message or, for text, silently wrong.
    /// </summary>
    public static TBuilder RefuseInlineComments<TBuilder>(this TBuilder builder) where TBuilder : IHostApplicationBuilder
    {
        foreach (var (key, value) in builder.Configuration.AsEnumerable())
            if (value is not null && IsSetting(key) && InlineComment().IsMatch(value))
                throw new InvalidSettingException(key,
                    "the value ends in an inline comment (' # ...'): an EnvironmentFile or env file keeps everything after '=' " +
                    "in the value, so put the comment on a line of its own.");
        return builder;
    }

    /// <summary>The advice for a value the configuration binder could not convert; null for any other failure.</summary>
    public static string? ConversionAdvice(Exception e) =>
        e is InvalidOperationException && FailedConversion().Match(e.Message) is { Success: true } failed
            ? $"{failed.Groups["path"].Value}: the value is not {Expected(failed.Groups["type"].Value)}; correct it, or remove the setting for its default."
            : null;

    static string Expected(string type) => type switch
    {
        "System.Int32" or "System.Int64" => "a whole number",
        "System.Double" or "System.Decimal" => "a number (with '.' for decimals)",
        "System.Boolean" => "true or false",
        "System.TimeSpan" => "a duration such as 00:02:00 (hh:mm:ss, or d.hh:mm:ss)",
        _ => $"a value of type {type}",
    };

    static bool IsSetting(string key) =>
        key.StartsWith("OTEL_", StringComparison.Ordinal) ||
        Sections.Any(section => key.Equals(section, StringComparison.OrdinalIgnoreCase)
                                || key.StartsWith(section + ":", StringComparison.OrdinalIgnoreCase));

    [GeneratedRegex(@"\s#(\s|\z)")]
    private static partial Regex InlineComment();

    [GeneratedRegex(@"^Failed to convert configuration value '.*' at '(?<path>[^']*)' to type '(?<type>[^']*)'\.\z", RegexOptions.Singleline)]
    private static partial Regex FailedConversion();
}
