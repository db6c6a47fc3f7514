namespace IfiDashboard.Client.Components.Forms;

/// <summary>
/// Validation messages by field key, so each one is shown next to the input it is about rather than in a list at the
/// top that a keyboard or screen-reader user has to match up with the fields.
/// </summary>
public sealed class FormErrors
{
    readonly Dictionary<string, string> _messages = new(StringComparer.OrdinalIgnoreCase);

    public bool Any => _messages.Count > 0;

    public IReadOnlyDictionary<string, string> All => _messages;

    /// <summary>Keeps the first message for a field: it is usually the one that explains the others.</summary>
    public void Add(string field, string message) => _messages.TryAdd(field, message);

    public string? For(string field) => _messages.GetValueOrDefault(field);
}
