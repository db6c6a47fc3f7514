using System.Buffers.Text;
using System.Globalization;
using System.Text;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>
/// The opaque cursor of the instance list: the last id a page returned. Pages are in id order, so instances added
/// while a client pages show up on a later page and none is skipped or repeated.
/// </summary>
internal static class PageCursor
{
    const string Version = "v1:";

    public static string Encode(long lastId) =>
        Base64Url.EncodeToString(Encoding.ASCII.GetBytes(Version + lastId.ToString(CultureInfo.InvariantCulture)));

    public static bool TryDecode(string cursor, out long lastId)
    {
        lastId = 0;
        if (cursor.Length is 0 or > 64 || !Base64Url.IsValid(cursor))
            return false;
        var text = Encoding.ASCII.GetString(Base64Url.DecodeFromChars(cursor));
        return text.StartsWith(Version, StringComparison.Ordinal)
               && long.TryParse(text.AsSpan(Version.Length), NumberStyles.None, CultureInfo.InvariantCulture, out lastId)
               && lastId > 0;
    }
}
