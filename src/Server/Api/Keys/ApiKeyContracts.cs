using System.Text.Json.Serialization;
using IfiDashboard.Store.ApiKeys;

namespace IfiDashboard.Server.Api.Keys;

[JsonUnmappedMemberHandling(JsonUnmappedMemberHandling.Disallow)]
public sealed record CreateApiKeyRequest
{
    /// <summary>Who or what uses the key, e.g. "cmdb".</summary>
    public string? Name { get; init; }
    /// <summary>Any of read, inventory:write, snapshot:ingest, admin.</summary>
    public List<string?>? Scopes { get; init; }
    /// <summary>With <c>snapshot:ingest</c> (and only then): the Collector:Name of the one collector that uses the key.</summary>
    public string? Collector { get; init; }
}

/// <summary>A key as listed: never the key itself.</summary>
public sealed record ApiKeyResponse(string Prefix, string Name, IReadOnlyList<string> Scopes, DateTimeOffset CreatedAt,
    DateTimeOffset? RevokedAt, string? Collector)
{
    public static ApiKeyResponse From(ApiKeyRecord record) =>
        new(record.Prefix, record.Name, record.Scopes, record.CreatedAt, record.RevokedAt, record.CollectorName);
}

/// <summary>A new key. <see cref="Key"/> is shown this once: only its hash is stored.</summary>
public sealed record CreatedApiKeyResponse(string Prefix, string Name, IReadOnlyList<string> Scopes, DateTimeOffset CreatedAt,
    string? Collector, string Key);
