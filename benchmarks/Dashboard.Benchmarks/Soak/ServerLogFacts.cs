using System.Text.RegularExpressions;

namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>
/// What the server's console log says about its health: unhandled exceptions and critical entries (the criterion),
/// errors by category (expected while instances fail and the store is locked, shown so that a new one stands out),
/// and polls stored only after the busy store's retries.
/// </summary>
internal sealed partial record ServerLogFacts(int Unhandled, IReadOnlyDictionary<string, int> ErrorsByCategory, int Warnings, int StoredAfterRetry)
{
    public static ServerLogFacts Read(string path)
    {
        int unhandled = 0, warnings = 0, retried = 0;
        var errors = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var line in File.ReadLines(path))
        {
            if (line.StartsWith("crit:", StringComparison.Ordinal) || line.Contains("Unhandled exception", StringComparison.OrdinalIgnoreCase))
                unhandled++;
            if (line.StartsWith("warn:", StringComparison.Ordinal)) warnings++;
            if (line.Contains("Stored the poll of instance", StringComparison.Ordinal)) retried++;
            if (FailPattern().Match(line) is { Success: true } fail)
                errors[fail.Groups[1].Value] = errors.GetValueOrDefault(fail.Groups[1].Value) + 1;
        }
        return new ServerLogFacts(unhandled, errors, warnings, retried);
    }

    public string Describe() =>
        $"{Warnings} warnings; errors: " +
        (ErrorsByCategory.Count == 0 ? "none" : string.Join(", ", ErrorsByCategory.OrderByDescending(e => e.Value).Select(e => $"{e.Value}× {e.Key}")));

    [GeneratedRegex(@"^fail: ([^\[]+)\[")]
    private static partial Regex FailPattern();
}
