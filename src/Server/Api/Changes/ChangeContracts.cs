using IfiDashboard.Server.OpenApi;
using IfiDashboard.Shared.Contracts;

namespace IfiDashboard.Server.Api.Changes;

/// <summary>
/// A page of the changes feed, oldest first. Store <see cref="NextCursor"/> and pass it as <c>since</c> next time:
/// you get only newer entries, none missed and none repeated. <see cref="HasMore"/> says to ask again at once.
/// </summary>
public sealed record ChangePage(IReadOnlyList<ChangeEntry> Items, string NextCursor, bool HasMore);

/// <summary>
/// One change. <c>kind</c> and <c>change</c>:
/// <list type="bullet">
/// <item><c>status</c>: <c>firstSeen</c> or <c>changed</c>; old and new value are compliance statuses, detail the explanation.</item>
/// <item><c>timeline</c>: <c>ifiEnabled</c> (Y/N), <c>serviceAccount</c> or <c>serviceStarted</c>, seen by a poll.</item>
/// <item><c>inventory</c>: <c>created</c>, <c>updated</c> or <c>retired</c>, with the instance's version.</item>
/// </list>
/// A <c>timeline</c> entry's <c>doubt</c>, when present, says why the one poll that saw it disagrees with the
/// instance's recent history (no restart in between, another collector): treat it as unconfirmed until a later poll
/// agrees.
/// <c>id</c> is unique across the feed and stable: a client can use it to ignore an entry it already holds.
/// <c>displayName</c> is the registration's name; <c>instanceName</c> is its deprecated alias (until v2), since in
/// /api/v1 an instance name is a SQL Server named instance.
/// </summary>
public sealed record ChangeEntry(
    string Id,
    [property: ApiValues("status", "timeline", "inventory")] string Kind,
    string Change,
    DateTimeOffset At,
    long InstanceId,
    string DisplayName,
    string? ExternalKey,
    string? OldValue,
    string? NewValue,
    long? Version,
    string? Detail,
    string? Doubt = null)
{
    [DeprecatedAlias("displayName")]
    public string InstanceName => DisplayName;
}
