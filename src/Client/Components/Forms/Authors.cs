namespace IfiDashboard.Client.Components.Forms;

/// <summary>
/// Who made a change. The product has no login yet, so the form's "your name" field is trusted as typed, and a
/// change made without one is recorded as "dashboard" rather than refused.
/// </summary>
public static class Authors
{
    public const string Anonymous = "dashboard";
    public const int MaxLength = 128;

    public static string Or(string? typed)
    {
        var name = typed?.Trim();
        if (string.IsNullOrEmpty(name)) return Anonymous;
        return name.Length <= MaxLength ? name : name[..MaxLength];
    }
}
