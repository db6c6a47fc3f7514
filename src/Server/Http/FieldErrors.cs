namespace IfiDashboard.Server.Http;

/// <summary>Validation messages by field path (<c>instances[3].port</c>), in the shape ValidationProblem takes.</summary>
internal sealed class FieldErrors
{
    readonly Dictionary<string, List<string>> _errors = new(StringComparer.Ordinal);

    public bool Any => _errors.Count > 0;

    public int Count => _errors.Count;

    public void Add(string field, string message)
    {
        if (!_errors.TryGetValue(field, out var messages))
            _errors[field] = messages = [];
        messages.Add(message);
    }

    public Dictionary<string, string[]> ToDictionary() =>
        _errors.ToDictionary(e => e.Key, e => e.Value.ToArray(), StringComparer.Ordinal);
}
