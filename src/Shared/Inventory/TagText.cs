namespace IfiDashboard.Shared.Inventory;

/// <summary>
/// An instance's tags written as one text: a CSV cell of the import and of both exports, the registration form's field.
/// One separator, ';': CSV needs no quotes around it, and the exports have always written it. A ',' is refused with
/// a message saying so rather than read either way: the import page once asked for "finance,pci" in quotes, and such a
/// cell read as one tag would register a tag nobody meant, split on ',' would make a second separator (issue 29).
/// </summary>
public static class TagText
{
    public const char Separator = ';';

    public static string Join(IEnumerable<string> tags) => string.Join(Separator, tags);

    /// <summary>The tags a text names: split on ';', trimmed, empty ones dropped, each once ignoring case.</summary>
    public static IReadOnlyList<string> Split(string? text) =>
        (text ?? "").Split(Separator, StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            .Distinct(StringComparer.OrdinalIgnoreCase).ToList();

    /// <summary>Why the text cannot be read as tags (a ','), or null.</summary>
    public static string? Error(string? text) => text?.Contains(',', StringComparison.Ordinal) == true
        ? $"Separate tags with '{Separator}', as the exports write them (finance{Separator}pci): a ',' is not read as a separator or as part of a tag."
        : null;
}
