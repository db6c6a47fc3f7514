using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Store.Inventory;
using Microsoft.Net.Http.Headers;

namespace IfiDashboard.Server.Http;

/// <summary>
/// Strong ETags. One instance's is its row id and version (bumped on every change and on retirement); a page's
/// is a hash of its instances' tags and its cursor.
/// </summary>
internal static class EntityTags
{
    public static string For(InventoryRecord record) => $"\"{record.Registration.Id}-{record.Version}\"";

    public static string ForPage(IEnumerable<InventoryRecord> records, string? nextCursor)
    {
        var text = new StringBuilder();
        foreach (var record in records)
            text.Append(record.Registration.Id).Append('-').Append(record.Version).Append(';');
        text.Append(nextCursor);
        var hash = SHA256.HashData(Encoding.UTF8.GetBytes(text.ToString()));
        return $"\"p{Convert.ToHexStringLower(hash.AsSpan(0, 12))}\"";
    }

    /// <summary>True when If-None-Match names <paramref name="etag"/> (or is *): answer 304.</summary>
    public static bool NoneMatchHits(HttpRequest request, string etag)
    {
        var header = request.Headers.IfNoneMatch;
        if (header.Count == 0 || !EntityTagHeaderValue.TryParseList(header, out var tags))
            return false;
        var current = EntityTagHeaderValue.Parse(etag);
        return tags.Any(t => t.Equals(EntityTagHeaderValue.Any) || t.Compare(current, useStrongComparison: false));
    }

    /// <summary>
    /// The condition a PUT's If-Match (strong comparison; * = the instance exists) or If-None-Match: * (it does not
    /// exist yet) puts on the current instance. Without either header the upsert is unconditional.
    /// </summary>
    public static Func<InventoryRecord?, bool> WriteCondition(HttpRequest request)
    {
        var ifMatch = request.Headers.IfMatch;
        var ifNoneMatch = request.Headers.IfNoneMatch;
        if (ifMatch.Count > 0)
        {
            if (!EntityTagHeaderValue.TryParseList(ifMatch, out var tags))
                return _ => false;
            return current => current is not null && tags.Any(t =>
                t.Equals(EntityTagHeaderValue.Any) || t.Compare(EntityTagHeaderValue.Parse(For(current)), useStrongComparison: true));
        }
        if (ifNoneMatch.Count > 0)
        {
            if (!EntityTagHeaderValue.TryParseList(ifNoneMatch, out var tags))
                return _ => false;
            return current => current is null || !tags.Any(t =>
                t.Equals(EntityTagHeaderValue.Any) || t.Compare(EntityTagHeaderValue.Parse(For(current)), useStrongComparison: false));
        }
        return _ => true;
    }
}
