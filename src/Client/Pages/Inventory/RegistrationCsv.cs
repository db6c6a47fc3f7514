using IfiDashboard.Client.Components;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Shared.Inventory;
using Microsoft.VisualBasic.FileIO;

namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>
/// A row of an imported file: its line, its name cell as written (to name a row that could not be read), and the
/// registration it describes or why it could not be read.
/// </summary>
public sealed record RegistrationCsvRow(long Line, string? Name, InstanceRegistration? Registration, IReadOnlyList<InstanceFieldError> Errors);

/// <summary>The rows of a file, or why the file as a whole cannot be read (then no rows).</summary>
public sealed record RegistrationCsvFile(IReadOnlyList<RegistrationCsvRow> Rows, string? Error);

/// <summary>
/// Registrations from CSV, for an import: a header row naming the API's fields in any order, then one instance a row.
/// Each row's cells are read as the registration form reads what a person types (<see cref="RegistrationForm"/>): a
/// blank cell is a field left empty, tags are separated by ';' (<see cref="TagText"/>), and a port or interval means the
/// same in a file as in the form. The rules are the inventory's (<see cref="InstanceRules"/>), applied to every row.
/// </summary>
public static class RegistrationCsv
{
    /// <summary>A 1,500-instance estate, or ten of them, in one file (issue 29).</summary>
    public const int MaxRows = 20_000;

    /// <summary>
    /// 4 MB: ASP.NET Core's limit on one form value, which the pasted text and the preview's hidden copy of the file
    /// are; about 200 bytes a row at 20,000 rows, twice a typical row (name, host, port, environment, owner, two tags,
    /// credential). A file of longer rows is imported in parts.
    /// </summary>
    public const int MaxBytes = 4 * 1024 * 1024;

    /// <summary>The columns a file may have, named as the API and the rules name the fields.</summary>
    public static readonly IReadOnlyList<string> Columns =
    [
        "name", "host", "port", "instanceName", "environment", "owner", "tags", "encrypt", "trustServerCertificate",
        "hostNameInCertificate", "serverCertificatePath", "credentialName", "pollIntervalSeconds",
    ];

    static readonly string[] RequiredColumns = ["name", "host"];

    public static RegistrationCsvFile Read(string csv)
    {
        if (csv.Length > MaxBytes)
            return Refused(TooLarge);
        // TextFieldParser (Microsoft.VisualBasic, part of .NET) reads RFC 4180: quoted cells with commas, quotes and
        // line breaks; it trims cells, as the form trims what is typed.
        using var parser = new TextFieldParser(new StringReader(csv)) { HasFieldsEnclosedInQuotes = true };
        parser.SetDelimiters(",");
        try
        {
            if (parser.ReadFields() is not { } header)
                return Refused("The file is empty: its first line names the columns, e.g. name,host,port.");
            if (HeaderError(header) is { } headerError)
                return Refused(headerError);
            var rows = new List<RegistrationCsvRow>();
            var lines = csv.Count(c => c == '\n') + (csv.EndsWith('\n') ? 0 : 1);
            while (!parser.EndOfData)
            {
                var cells = parser.ReadFields() ?? [];
                // The line the row starts on, counted back from the line after it: ReadFields skips blank lines before
                // a row, so the line number read before it may be a blank line's; a quoted cell may span lines.
                var after = parser.LineNumber > 0 ? parser.LineNumber : lines + 1;
                var line = after - 1 - cells.Sum(cell => cell.Count(c => c == '\n'));
                if (rows.Count == MaxRows)
                    return Refused($"More than {Quantities.Count(MaxRows)} rows: import the file in parts.");
                rows.Add(Row(line, header, cells));
            }
            return rows.Count == 0 ? Refused("The file names its columns but has no rows.") : new RegistrationCsvFile(rows, null);
        }
        catch (MalformedLineException)
        {
            return Refused($"Line {parser.ErrorLineNumber} cannot be read as CSV: a quote is not closed, or a quoted cell has text after its closing quote.");
        }
    }

    /// <summary>What a file over <see cref="MaxBytes"/> is told.</summary>
    public static string TooLarge => $"The file is larger than {MaxBytes / (1024 * 1024)} MB: import it in parts of at most {Quantities.Count(MaxRows)} rows.";

    static RegistrationCsvFile Refused(string error) => new([], error);

    static string? HeaderError(string[] header)
    {
        var unknown = header.Where(h => !Columns.Contains(h, StringComparer.OrdinalIgnoreCase)).ToList();
        if (unknown.Count > 0)
            return $"Unknown column '{unknown[0]}' on line 1. The columns are: {string.Join(", ", Columns)}.";
        if (header.GroupBy(h => h, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1) is { } twice)
            return $"The column '{twice.Key}' is named twice on line 1.";
        if (RequiredColumns.FirstOrDefault(r => !header.Contains(r, StringComparer.OrdinalIgnoreCase)) is { } missing)
            return $"Line 1 names no '{missing}' column; name and host are required.";
        return null;
    }

    static RegistrationCsvRow Row(long line, string[] header, string[] cells)
    {
        if (cells.Length != header.Length)
            return new(line, null, null, [new("row", $"{cells.Length} cells where line 1 names {header.Length} columns.")]);
        string? Cell(string column)
        {
            var index = Array.FindIndex(header, h => string.Equals(h, column, StringComparison.OrdinalIgnoreCase));
            return index < 0 || cells[index].Length == 0 ? null : cells[index];
        }

        var errors = new List<InstanceFieldError>();
        var trust = false;
        if (Cell("trustServerCertificate") is { } trustCell && !TryReadYesNo(trustCell, out trust))
            errors.Add(new("trustServerCertificate", "true or false (yes/no, 1/0), or empty for false."));
        var form = new RegistrationForm
        {
            Name = Cell("name"),
            Host = Cell("host"),
            Port = Cell("port"),
            InstanceName = Cell("instanceName"),
            Owner = Cell("owner"),
            Tags = Cell("tags"),
            TrustServerCertificate = trust,
            HostNameInCertificate = Cell("hostNameInCertificate"),
            ServerCertificatePath = Cell("serverCertificatePath"),
            CredentialName = Cell("credentialName"),
        };
        // Empty cells keep the form's defaults (Production, Mandatory, 300 s), as an empty field does.
        if (Cell("environment") is { } environment) form.Environment = environment;
        if (Cell("encrypt") is { } encrypt) form.Encrypt = encrypt;
        if (Cell("pollIntervalSeconds") is { } interval) form.PollIntervalSeconds = interval;

        var unread = new FormErrors();
        var registration = form.ToRegistration(0, unread);
        errors.AddRange(unread.All.Select(e => new InstanceFieldError(ColumnOf(e.Key), e.Value)));
        if (registration is not null)
            errors.AddRange(InstanceRules.Check(registration));
        return new(line, form.Name, errors.Count == 0 ? registration : null, errors);
    }

    /// <summary>The form's field ("Form.PollIntervalSeconds") as the column names it ("pollIntervalSeconds").</summary>
    static string ColumnOf(string formField)
    {
        var property = formField[(formField.IndexOf('.', StringComparison.Ordinal) + 1)..];
        return char.ToLowerInvariant(property[0]) + property[1..];
    }

    static bool TryReadYesNo(string text, out bool value)
    {
        value = text.ToLowerInvariant() is "true" or "yes" or "1";
        return value || text.ToLowerInvariant() is "false" or "no" or "0";
    }
}
