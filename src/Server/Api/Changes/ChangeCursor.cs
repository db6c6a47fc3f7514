using System.Buffers.Text;
using System.Globalization;
using System.Text;

namespace IfiDashboard.Server.Api.Changes;

/// <summary>
/// The feed's opaque cursor: the highest journal id and the highest IFI-timeline id a client has been given. The two
/// sources keep their own id spaces; each only grows, so "after both" is exactly what the client has not seen.
/// </summary>
internal readonly record struct ChangeCursor(long JournalId, long TimelineId)
{
    const string Version = "c1:";
    const int MaxLength = 128;

    public static ChangeCursor Beginning => new(0, 0);

    public string Encode() => Base64Url.EncodeToString(Encoding.ASCII.GetBytes(
        string.Create(CultureInfo.InvariantCulture, $"{Version}{JournalId}:{TimelineId}")));

    public static bool TryDecode(string text, out ChangeCursor cursor)
    {
        cursor = Beginning;
        if (text.Length is 0 or > MaxLength || !Base64Url.IsValid(text))
            return false;
        var decoded = Encoding.ASCII.GetString(Base64Url.DecodeFromChars(text));
        if (!decoded.StartsWith(Version, StringComparison.Ordinal))
            return false;
        var parts = decoded[Version.Length..].Split(':');
        if (parts.Length != 2
            || !long.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var journal)
            || !long.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var timeline))
            return false;
        cursor = new ChangeCursor(journal, timeline);
        return true;
    }
}
