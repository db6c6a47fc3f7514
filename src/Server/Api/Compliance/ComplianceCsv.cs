using System.Globalization;
using System.Text;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Api.Compliance;

/// <summary>
/// The export as CSV: one column per <see cref="ComplianceRow"/> field, headed by its JSON name and in the same
/// order, so the CSV and the JSON export say the same thing. Tags are joined with ';'; times are ISO-8601 UTC.
/// </summary>
internal static class ComplianceCsv
{
    sealed record Column(string Name, Func<ComplianceRow, string> Cell);

    static Column Text(string name, Func<ComplianceRow, string?> value) => new(name, r => Csv.Text(value(r)));
    static Column Plain(string name, Func<ComplianceRow, string?> value) => new(name, r => Csv.Plain(value(r)));
    static Column Number(string name, Func<ComplianceRow, double> value) => Plain(name, r => value(r).ToString(CultureInfo.InvariantCulture));
    /// <summary>An empty cell where the JSON says null (a time lost the pages call "unknown").</summary>
    static Column Number(string name, Func<ComplianceRow, double?> value) => Plain(name, r => value(r)?.ToString(CultureInfo.InvariantCulture));
    static Column Number(string name, Func<ComplianceRow, long> value) => Plain(name, r => value(r).ToString(CultureInfo.InvariantCulture));
    static Column Flag(string name, Func<ComplianceRow, bool> value) => Plain(name, r => value(r) ? "true" : "false");
    static Column Time(string name, Func<ComplianceRow, DateTimeOffset?> value) =>
        Plain(name, r => value(r)?.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.FFFFFFF'Z'", CultureInfo.InvariantCulture));

    static readonly Column[] Columns =
    [
        Number("id", r => r.Id),
        Text("externalKey", r => r.ExternalKey),
        Text("name", r => r.Name),
        Text("environment", r => r.Environment),
        Text("owner", r => r.Owner),
        Text("tags", r => TagText.Join(r.Tags)),
        Number("majorVersion", r => r.MajorVersion),
        Text("release", r => r.Release),
        Text("status", r => r.Status),
        Flag("isStale", r => r.IsStale),
        Text("explanation", r => r.Explanation),
        Text("desiredState", r => r.DesiredState),
        Text("ruleName", r => r.RuleName),
        Text("observedIfi", r => r.ObservedIfi),
        Text("unknownReason", r => r.UnknownReason),
        Time("waiverExpiresAt", r => r.WaiverExpiresAt),
        Text("accountKind", r => r.AccountKind),
        Flag("accountOverPrivileged", r => r.AccountOverPrivileged),
        Number("zeroingBytesPerSecond", r => r.ZeroingBytesPerSecond),
        Text("zeroingRateMethod", r => r.ZeroingRateMethod),
        Number("timeLost7DaysSeconds", r => r.TimeLost7DaysSeconds),
        Number("timeLost30DaysSeconds", r => r.TimeLost30DaysSeconds),
        Number("timeLost90DaysSeconds", r => r.TimeLost90DaysSeconds),
        Text("timeLost7DaysCertainty", r => r.TimeLost7DaysCertainty),
        Text("timeLost30DaysCertainty", r => r.TimeLost30DaysCertainty),
        Text("timeLost90DaysCertainty", r => r.TimeLost90DaysCertainty),
        Number("logZeroing30DaysSeconds", r => r.LogZeroing30DaysSeconds),
        Time("evidenceSince", r => r.EvidenceSince),
        Number("restoreExtraSeconds", r => r.RestoreExtraSeconds),
        Number("restoreExtraSecondsAllDatabases", r => r.RestoreExtraSecondsAllDatabases),
        Time("lastGoodPollAt", r => r.LastGoodPollAt),
        Number("policyVersion", r => r.PolicyVersion),
        Time("assessedAt", r => r.AssessedAt),
    ];

    public static byte[] Write(IEnumerable<ComplianceRow> rows)
    {
        var csv = new StringBuilder();
        Csv.AppendRow(csv, Columns.Select(c => c.Name));
        foreach (var row in rows)
            Csv.AppendRow(csv, Columns.Select(c => c.Cell(row)));
        return Encoding.UTF8.GetBytes(csv.ToString());
    }
}
