using Microsoft.Net.Http.Headers;
using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Api.Compliance;

public enum ExportFormat
{
    Json,
    Csv,
}

/// <summary>Content negotiation for the export: the acceptable type with the highest quality wins; JSON by default.</summary>
internal static class ExportFormats
{
    public const string Json = "application/json";
    public const string Csv = "text/csv";

    /// <summary>The format to answer in, or null when the Accept header allows neither (answer 406).</summary>
    public static ExportFormat? Negotiate(HttpRequest request)
    {
        var accept = request.Headers.Accept;
        if (accept.Count == 0 || accept.All(string.IsNullOrWhiteSpace))
            return ExportFormat.Json;
        if (!MediaTypeHeaderValue.TryParseList(accept, out var ranges))
            return null;

        ExportFormat? best = null;
        var bestQuality = 0.0;
        // Stable on ties: the earlier range wins, so "text/csv, application/json" answers CSV.
        foreach (var range in ranges)
        {
            var quality = range.Quality ?? 1.0;
            if (quality <= bestQuality || Match(range) is not { } format)
                continue;
            best = format;
            bestQuality = quality;
        }
        return best;
    }

    static ExportFormat? Match(MediaTypeHeaderValue range)
    {
        var type = range.Type.Value;
        var subtype = range.SubType.Value;
        if (Is(type, "*") && Is(subtype, "*")) return ExportFormat.Json;
        if (Is(type, "application") && (Is(subtype, "json") || Is(subtype, "*"))) return ExportFormat.Json;
        if (Is(type, "text") && (Is(subtype, "csv") || Is(subtype, "*"))) return ExportFormat.Csv;
        return null;
    }

    static bool Is(string? value, string expected) => string.Equals(value, expected, StringComparison.OrdinalIgnoreCase);
}
