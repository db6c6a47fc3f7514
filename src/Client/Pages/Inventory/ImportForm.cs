namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>
/// The import form: the CSV (pasted, or read from the uploaded file, which then takes its place) and the button pressed.
/// The preview hands the same text back in a hidden field, so what is registered is exactly what was previewed, read
/// and checked again.
/// </summary>
public sealed class ImportForm
{
    public const string Preview = "preview";
    public const string Register = "register";
    /// <summary>The file input's name; the file is read from the request, not bound.</summary>
    public const string FileField = "file";

    public string? Csv { get; set; }
    public string? Command { get; set; }
}
