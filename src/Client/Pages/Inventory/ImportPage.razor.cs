using System.Text;
using IfiDashboard.Client.Components;
using IfiDashboard.Shared.Inventory;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>
/// Registers many instances from a CSV file (/inventory/import): Preview reads the file and runs the registration of
/// every row in a transaction that is rolled back, so the preview shows what registering would do, row by row;
/// Register does the same with the same text and keeps it, all rows or none.
/// </summary>
public partial class ImportPage
{
    [Inject] IInventoryEditor Inventory { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;

    [SupplyParameterFromForm(FormName = "import")] public ImportForm? Import { get; set; }
    /// <summary>The request a static form post came in; the uploaded file is read from it.</summary>
    [CascadingParameter] public HttpContext? HttpContext { get; set; }

    /// <summary>
    /// Rows the preview's table shows at most: a file of 20,000 rows is summed up in counts, with its refused rows (or,
    /// when none is refused, its first rows) in the table, rather than rendered whole into the page.
    /// </summary>
    public const int MaxShownRows = 200;

    IReadOnlyList<PreviewRow>? _preview;
    IReadOnlyList<PreviewRow> _shown = [];
    int _refused;
    string? _fileError;
    string? _message;
    bool _failed;

    sealed record PreviewRow(long Line, string? Name, InstanceRegistration? Registration, IReadOnlyList<PreviewRefusal> Refusals);

    sealed record PreviewRefusal(string Field, string Message, string? ExistingLink);

    async Task PreviewOrRegisterAsync()
    {
        if (Import is null) return;
        if (await UploadedTextAsync() is { } uploaded)
            Import.Csv = uploaded;
        if (_fileError is not null) return;
        if (string.IsNullOrWhiteSpace(Import.Csv))
        {
            _fileError = "Choose a CSV file or paste its rows.";
            return;
        }
        var file = RegistrationCsv.Read(Import.Csv);
        if (file.Error is not null)
        {
            _fileError = file.Error;
            return;
        }

        // Rows that break a rule are shown with every broken rule; the others go through the inventory together, so
        // names and servers are checked against the store and against each other.
        var readable = file.Rows.Where(r => r.Registration is not null).ToList();
        var commit = Import.Command == ImportForm.Register && readable.Count == file.Rows.Count;
        IReadOnlyList<ImportRowResult> results;
        try
        {
            results = readable.Count == 0 ? [] : await Inventory.ImportAsync(readable.Select(r => r.Registration!).ToList(), commit, CancellationToken.None);
        }
        catch (Exception e)
        {
            Fail($"Nothing was registered: {Failures.Logged("Importing registrations", e)}");
            return;
        }
        var resultOf = readable.Select((row, i) => (row.Line, Result: results[i])).ToDictionary(r => r.Line, r => r.Result);
        _preview = file.Rows.Select(row => new PreviewRow(row.Line, row.Name, row.Registration,
            resultOf.TryGetValue(row.Line, out var result) ? Refusals(result, readable) : row.Errors.Select(e => new PreviewRefusal(e.Path, e.Message, null)).ToList()))
            .ToList();

        var refused = _refused = _preview.Count(r => r.Refusals.Count > 0);
        _shown = (refused > 0 && _preview.Count > MaxShownRows ? _preview.Where(r => r.Refusals.Count > 0) : _preview).Take(MaxShownRows).ToList();
        if (commit && refused == 0)
        {
            Navigation.NavigateTo(InventoryMessages.Imported(_preview.Count));
            return;
        }
        if (refused > 0)
            Fail($"{Quantities.Plural(refused, "row")} of {_preview.Count} would be refused; nothing was registered.");
        else
            _message = $"Every row can be registered. Nothing is registered until you confirm below.";
    }

    static IReadOnlyList<PreviewRefusal> Refusals(ImportRowResult row, IReadOnlyList<RegistrationCsvRow> imported) =>
        row.Result is { Succeeded: false, Field: var field, Error: var error }
            ? [new(field ?? "row", error + (row.ConflictingRow is { } other ? $" (line {imported[other].Line} of this file)" : ""), row.Result.ExistingLink)]
            : [];

    /// <summary>The uploaded file's text, when a file was chosen; it takes the place of pasted text.</summary>
    async Task<string?> UploadedTextAsync()
    {
        if (HttpContext is not { Request.HasFormContentType: true } http
            || (await http.Request.ReadFormAsync()).Files.GetFile(ImportForm.FileField) is not { Length: > 0 } file)
            return null;
        if (file.Length > RegistrationCsv.MaxBytes)
        {
            _fileError = RegistrationCsv.TooLarge;
            return null;
        }
        using var reader = new StreamReader(file.OpenReadStream(), Encoding.UTF8, detectEncodingFromByteOrderMarks: true);
        return await reader.ReadToEndAsync();
    }

    void Fail(string message)
    {
        _message = message;
        _failed = true;
    }
}
