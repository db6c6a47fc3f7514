using System.Globalization;
using System.Text;
using IfiDashboard.Shared.Dashboard;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The grid as CSV (RFC 4180): the columns the page shows, for every row its filters match, in its order, on every
/// page. Served by <see cref="ExportPath"/> with the grid's own query string, so the live page does not carry (and
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
    ];

    public static string Build(IEnumerable<InstanceGridRow> rows)
    {
        var csv = new StringBuilder();
        Line(csv, Header);
        foreach (var r in rows)
            Line(csv,
            [
                r.Name, r.StatusText, r.Environment, r.Owner, string.Join("; ", r.Tags), r.Version, r.IfiText,
                Components.StatusText.Desired(r.Desired),
                // Unknown stays unknown in a spreadsheet too: an empty cell, not 0.
                TimeLost.IsUnknown(r.TimeLost30Days, r.IfiUnknown30Days) ? "" : r.TimeLost30Days.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture),
                r.RestoreMinutes.ToString("0.##", CultureInfo.InvariantCulture),
                r.LastPollAt?.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) ?? "",
                r.Explanation,
            ]);
        return csv.ToString();
    }

    /// <summary>The file's bytes; the BOM makes spreadsheet programs read it as UTF-8.</summary>
    public static byte[] Utf8File(IEnumerable<InstanceGridRow> rows) =>
        Encoding.UTF8.GetPreamble().Concat(Encoding.UTF8.GetBytes(Build(rows))).ToArray();

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
