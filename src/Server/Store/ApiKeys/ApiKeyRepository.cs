using System.Data.Common;
using System.Text.Json;
using Dapper;

namespace IfiDashboard.Server.Store.ApiKeys;

/// <summary>API keys by prefix and hash. Callers hash; the key itself never reaches this class.</summary>
public sealed class ApiKeyRepository(IDbConnectionFactory connections, TimeProvider timeProvider)
{

    /// <summary>Stores a new key; null when the prefix or hash is already taken (the caller draws another key).</summary>
    public async Task<ApiKeyRecord?> TryAddAsync(string prefix, string keyHash, string name, IReadOnlyList<string> scopes,
        CancellationToken cancellationToken)
    {
        const string sql = $"""
            INSERT INTO api_keys (prefix, key_hash, name, scopes, created_at)
            VALUES (@prefix, @keyHash, @name, @scopes, @createdAt)
            RETURNING {ApiKeyRow.Columns};
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        try
        {
            var row = await connection.QuerySingleAsync<ApiKeyRow>(new CommandDefinition(sql, new
            {
                prefix,
                keyHash,
                name,
                scopes = JsonSerializer.Serialize(scopes),
                createdAt = StoreTime.ToText(timeProvider.GetUtcNow()),
            }, cancellationToken: cancellationToken));
            return row.ToRecord();
        }
        catch (DbException ex) when (ex.IsUniqueViolation())
        {
            return null;
        }
    }

    /// <summary>The key with this hash, if it exists and is not revoked.</summary>
    public async Task<ApiKeyRecord?> FindActiveByHashAsync(string keyHash, CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {ApiKeyRow.Columns}
            FROM api_keys
            WHERE key_hash = @keyHash AND revoked_at IS NULL;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var row = await connection.QuerySingleOrDefaultAsync<ApiKeyRow>(
            new CommandDefinition(sql, new { keyHash }, cancellationToken: cancellationToken));
        return row?.ToRecord();
    }

    public async Task<ApiKeyRecord?> FindByPrefixAsync(string prefix, CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {ApiKeyRow.Columns}
            FROM api_keys
            WHERE prefix = @prefix;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var row = await connection.QuerySingleOrDefaultAsync<ApiKeyRow>(
            new CommandDefinition(sql, new { prefix }, cancellationToken: cancellationToken));
        return row?.ToRecord();
    }

    /// <summary>Every key, revoked ones included, oldest first.</summary>
    public async Task<IReadOnlyList<ApiKeyRecord>> ListAsync(CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {ApiKeyRow.Columns}
            FROM api_keys
            ORDER BY id;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var rows = await connection.QueryAsync<ApiKeyRow>(new CommandDefinition(sql, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToRecord()).ToList();
    }

    /// <summary>Revokes the key; revoking twice keeps the first time. Null when no key has this prefix.</summary>
    public async Task<ApiKeyRecord?> RevokeAsync(string prefix, CancellationToken cancellationToken)
    {
        const string sql = $"""
            UPDATE api_keys
            SET revoked_at = COALESCE(revoked_at, @revokedAt)
            WHERE prefix = @prefix
            RETURNING {ApiKeyRow.Columns};
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var row = await connection.QuerySingleOrDefaultAsync<ApiKeyRow>(new CommandDefinition(sql,
            new { prefix, revokedAt = StoreTime.ToText(timeProvider.GetUtcNow()) }, cancellationToken: cancellationToken));
        return row?.ToRecord();
    }
}
