namespace IfiDashboard.Store.ApiKeys;

/// <summary>An <c>api_keys</c> row as Dapper reads it (the hash is never read back).</summary>
internal sealed class ApiKeyRow
{
    public const string Columns = """
        prefix AS Prefix, name AS Name, scopes AS Scopes, created_at AS CreatedAt, revoked_at AS RevokedAt,
        collector_name AS CollectorName
        """;

    public string Prefix { get; init; } = "";
    public string Name { get; init; } = "";
    public JsonColumn<IReadOnlyList<string>> Scopes { get; init; } = new([]);
    public DateTimeOffset CreatedAt { get; init; }
    public DateTimeOffset? RevokedAt { get; init; }
    public string? CollectorName { get; init; }

    public ApiKeyRecord ToRecord() => new(
        Prefix, Name, Scopes.Value, CreatedAt, RevokedAt,
        CollectorName);
}
