using System.Text;

namespace IfiDashboard.Server.Http;

/// <summary>
/// RFC 4180 CSV: CRLF line ends, a cell quoted when it holds a comma, quote, CR or LF, quotes doubled. Text cells
/// that a spreadsheet would run as a formula (starting with = + - @, or a tab or CR) get a leading apostrophe, so
/// an instance named "=HYPERLINK(...)" is shown, never evaluated.
/// </summary>
internal static class Csv
{
    public static void AppendRow(StringBuilder csv, IEnumerable<string> cells)
    {
        var first = true;
        foreach (var cell in cells)
        {
            if (!first) csv.Append(',');
            csv.Append(cell);
            first = false;
        }
        csv.Append("\r\n");
    }

    /// <summary>A text cell: formula-safe and quoted as needed. Null is an empty cell.</summary>
    public static string Text(string? value)
    {
        if (string.IsNullOrEmpty(value))
            return "";
        if (value[0] is '=' or '+' or '-' or '@' or '\t' or '\r')
            value = "'" + value;
        return Quote(value);
    }

    /// <summary>A cell we formatted ourselves (a number, a time, true/false): quoted as needed, never prefixed.</summary>
    public static string Plain(string? value) => string.IsNullOrEmpty(value) ? "" : Quote(value);

    static string Quote(string value) =>
        value.AsSpan().IndexOfAny(",\"\r\n") >= 0 ? "\"" + value.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"" : value;
}
