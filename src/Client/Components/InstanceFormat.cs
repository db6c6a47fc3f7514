using System.Globalization;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Components;

/// <summary>How instance facts are written on pages.</summary>
public static class InstanceFormat
{
    /// <summary>
    /// "SQL Server 2019 RTM CU28 (15.0.4385.2)", "Azure SQL Database (engine 12.0.2000.8)", or a dash when the instance
    /// was never read.
    /// </summary>
    public static string Version(InstanceState row, int? engineEdition)
    {
        if (row.ProductVersion is null) return "—";
        if (ProductVersions.PlatformProduct(engineEdition) is { } azure) return $"{azure} (engine {row.ProductVersion})";
        var release = ProductVersions.ReleaseName(ProductVersions.Major(row.ProductVersion));
        var level = string.Join(' ', new[] { row.ProductLevel, row.ProductUpdateLevel }.Where(s => !string.IsNullOrEmpty(s)));
        return level.Length == 0 ? $"{release} ({row.ProductVersion})" : $"{release} {level} ({row.ProductVersion})";
    }

    public static string Time(DateTimeOffset? at) =>
        at?.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) ?? "never";

    /// <summary>The last poll's outcome, with the client's raw text for Administrators only (<see cref="PollFailureText"/>).</summary>
    public static string Outcome(InstanceState row, bool seesRawText) => row.LastOutcome switch
    {
        null => "not polled yet",
        OutcomeClass.Ok => "OK",
        { } outcome => $"{outcome}: {PollFailureText.Message(outcome, row.LastMessage, seesRawText)}",
    };
}
