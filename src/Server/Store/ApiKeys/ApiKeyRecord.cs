namespace IfiDashboard.Server.Store.ApiKeys;

/// <summary>A stored API key: never the key itself, only its public prefix and (in the store) its hash.</summary>
public sealed record ApiKeyRecord(
    string Prefix,
    string Name,
    IReadOnlyList<string> Scopes,
    DateTimeOffset CreatedAt,
    DateTimeOffset? RevokedAt)
{
    public bool IsActive => RevokedAt is null;
}
