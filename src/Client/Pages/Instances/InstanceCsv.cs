using System.Globalization;
using System.Text;
using IfiDashboard.Shared.Dashboard;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The grid as CSV (RFC 4180): the same rows and columns the page shows. Offered as a <c>data:</c> link, so the
/// export needs no endpoint and is exactly the rows that were rendered.
/// </summary>
public static class InstanceCsv
{
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

    /// <summary>A <c>data:</c> URI; the BOM makes spreadsheet programs read the file as UTF-8.</summary>
    public static string DataUri(IEnumerable<InstanceGridRow> rows)
    {
        var bytes = Encoding.UTF8.GetPreamble().Concat(Encoding.UTF8.GetBytes(Build(rows))).ToArray();
        return "data:text/csv;charset=utf-8;base64," + Convert.ToBase64String(bytes);
    }

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
