using System.Globalization;
using System.Text;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The grid as CSV (RFC 4180): every column of the grid, whichever the view shows, for every row its filters match, in
/// its order, on every page. Served by <see cref="ExportPath"/> with the grid's own query string, so the live page does not carry (and
/// re-encode on each assessment) a copy of the file.
/// </summary>
public static class InstanceCsv
{
    public const string ExportPath = "instances/export.csv";
    public const string FileName = "instances.csv";

    public static readonly string[] Header =
    [
        "Instance", "Status", "Environment", "Owner", "Tags", "Version", "IFI", "Desired state",
        "Time lost 30 days (s)", "Restore risk (min)", "Last poll (UTC)", "Explanation",
        // Added after the others, so a script that reads the columns by position keeps working.
        "Host", "Port", "Service account", "IFI since (UTC)",
    ];

    /// <param name="ifiSince">When each instance's IFI state began, by instance id (<c>TimelineBuilder.IfiSince</c>).</param>
    public static string Build(IEnumerable<InstanceGridRow> rows, IReadOnlyDictionary<long, DateTimeOffset> ifiSince)
    {
        var csv = new StringBuilder();
        Line(csv, Header);
        foreach (var r in rows)
            Line(csv,
            [
                r.Name, r.StatusText, r.Environment, r.Owner, TagText.Join(r.Tags), r.Version, r.IfiText,
                Components.StatusText.Desired(r.Desired),
                // Unknown stays unknown in a spreadsheet too: an empty cell, not 0.
                TimeLost.IsUnknown(r.TimeLost30Days, r.IfiUnknown30Days, r.WithoutEvidence) ? "" : r.TimeLost30Days.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture),
                r.RestoreMinutes.ToString("0.##", CultureInfo.InvariantCulture),
                Moment(r.LastPollAt),
                r.Explanation,
                r.Host, r.Port?.ToString(CultureInfo.InvariantCulture) ?? "", r.EngineServiceAccount,
                // The IFI column of an unknown state says why; a date beside it would belong to the state before.
                r.Ifi == IfiState.Unknown ? "" : Moment(ifiSince.TryGetValue(r.Id, out var since) ? since : null),
            ]);
        return csv.ToString();
    }

    /// <summary>The file's bytes; the BOM makes spreadsheet programs read it as UTF-8.</summary>
    public static byte[] Utf8File(IEnumerable<InstanceGridRow> rows, IReadOnlyDictionary<long, DateTimeOffset> ifiSince) =>
        Encoding.UTF8.GetPreamble().Concat(Encoding.UTF8.GetBytes(Build(rows, ifiSince))).ToArray();

    static string Moment(DateTimeOffset? value) =>
        value?.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) ?? "";

    static void Line(StringBuilder csv, IEnumerable<string> cells)
    {
        csv.AppendJoin(',', cells.Select(Cell)).Append("\r\n");
    }

    static string Cell(string value)
    {
        // Names come from a CMDB: a leading = + - @ would run as a formula when the file is opened in a spreadsheet.
        if (value.Length > 0 && value[0] is '=' or '+' or '-' or '@' or '\t' or '\r') value = "'" + value;
        return value.IndexOfAny([',', '"', '\r', '\n']) >= 0 ? "\"" + value.Replace("\"", "\"\"") + "\"" : value;
    }
}
