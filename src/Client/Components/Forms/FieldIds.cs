using System.Text;

namespace IfiDashboard.Client.Components.Forms;

/// <summary>Element ids derived from form field names ("Draft.Rules[2].Name" → "draft-rules-2-name").</summary>
public static class FieldIds
{
    public static string For(string fieldName)
    {
        var id = new StringBuilder(fieldName.Length);
        foreach (var c in fieldName)
        {
            if (char.IsAsciiLetterOrDigit(c)) id.Append(char.ToLowerInvariant(c));
            else if (id.Length > 0 && id[^1] != '-') id.Append('-');
        }
        return id.ToString().TrimEnd('-');
    }

    public static string Error(string fieldName) => For(fieldName) + "-error";

    public static string Hint(string fieldName) => For(fieldName) + "-hint";
}
