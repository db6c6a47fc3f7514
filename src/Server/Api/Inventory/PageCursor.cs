using System.Buffers.Text;
using System.Globalization;
using System.Text;
using IfiDashboard.Store.Inventory;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>
/// The opaque cursor of the instance and compliance lists: where the last page ended. In id order it is the last id
/// (<c>v1:</c>), so instances added while a client pages show up on a later page and none is skipped or repeated; in
/// another order (<see cref="InstanceListSort"/>) it is the last row's sort key and id (<c>v2:</c>), good for that order only.
/// </summary>
internal static class PageCursor
{
    const string Version = "v1:";
    const string SortedVersion = "v2:";
    const int MaxLength = 512;

    public static string Encode(long lastId) =>
        Base64Url.EncodeToString(Encoding.UTF8.GetBytes(Version + lastId.ToString(CultureInfo.InvariantCulture)));

    public static bool TryDecode(string cursor, out long lastId)
    {
        lastId = 0;
        return Text(cursor) is { } text
               && text.StartsWith(Version, StringComparison.Ordinal)
               && long.TryParse(text.AsSpan(Version.Length), NumberStyles.None, CultureInfo.InvariantCulture, out lastId)
               && lastId > 0;
    }

    public static string Encode(InstanceListSort sort, InventoryRecord last) => sort switch
    {
        InstanceListSort.Name => Sorted('n', last.Registration.Id, last.Registration.Name),
        InstanceListSort.UpdatedAt => Sorted('u', last.Registration.Id, last.UpdatedAt.UtcTicks.ToString(CultureInfo.InvariantCulture)),
        _ => Encode(last.Registration.Id),
    };

    /// <summary>The position a cursor of this order names; false for a cursor of another order or not handed out.</summary>
    public static bool TryDecode(string cursor, InstanceListSort sort, out InstanceListPosition? position)
    {
        position = null;
        if (sort == InstanceListSort.Id)
        {
            if (!TryDecode(cursor, out var lastId))
                return false;
            position = new InstanceListPosition(lastId);
            return true;
        }
        // v2:<order>:<id>:<key>; the key (a name) may itself hold colons.
        if (Text(cursor) is not { } text || !text.StartsWith(SortedVersion, StringComparison.Ordinal)
            || text.Split(':', 4) is not [_, [var order], var idText, var key]
            || order != (sort == InstanceListSort.Name ? 'n' : 'u')
            || !long.TryParse(idText, NumberStyles.None, CultureInfo.InvariantCulture, out var id) || id <= 0)
            return false;
        if (sort == InstanceListSort.Name)
        {
            position = new InstanceListPosition(id, Name: key);
            return true;
        }
        if (!long.TryParse(key, NumberStyles.None, CultureInfo.InvariantCulture, out var ticks)
            || ticks > DateTimeOffset.MaxValue.UtcTicks)
            return false;
        position = new InstanceListPosition(id, UpdatedAt: new DateTimeOffset(ticks, TimeSpan.Zero));
        return true;
    }

    static string Sorted(char order, long id, string key) =>
        Base64Url.EncodeToString(Encoding.UTF8.GetBytes($"{SortedVersion}{order}:{id.ToString(CultureInfo.InvariantCulture)}:{key}"));

    static string? Text(string cursor)
    {
        if (cursor.Length is 0 or > MaxLength || !Base64Url.IsValid(cursor))
            return null;
        try
        {
            return new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(Base64Url.DecodeFromChars(cursor));
        }
        catch (DecoderFallbackException)
        {
            return null;
        }
    }
}
