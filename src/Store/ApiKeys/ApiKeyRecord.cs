namespace IfiDashboard.Store.ApiKeys;

/// <summary>
/// A stored API key: never the key itself, only its public prefix and (in the store) its hash. A key with the
/// <c>snapshot:ingest</c> scope belongs to the one collector named at issue (<see cref="CollectorName"/>).
/// </summary>
public sealed record ApiKeyRecord(
    string Prefix,
    string Name,
    IReadOnlyList<string> Scopes,
    DateTimeOffset CreatedAt,
    DateTimeOffset? RevokedAt,
    string? CollectorName = null)
{
    public bool IsActive => RevokedAt is null;
}
