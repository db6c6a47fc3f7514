using System.Data.Common;
using Dapper;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Store.ApiKeys;

/// <summary>
/// API keys by prefix and hash. Callers hash; the key itself never reaches this class. Issuing and revoking are
/// audited with the key's prefix, name, scopes and collector: never its hash.
/// </summary>
public sealed class ApiKeyStore(IDbConnectionFactory connections, TimeProvider timeProvider, AuditLog audit)
{

    /// <summary>Stores a new key; null when the prefix or hash is already taken (the caller draws another key).</summary>
    public async Task<ApiKeyRecord?> TryAddAsync(string prefix, string keyHash, string name, IReadOnlyList<string> scopes,
        string? collectorName, CancellationToken cancellationToken)
    {
        const string sql = $"""
            INSERT INTO api_keys (prefix, key_hash, name, scopes, created_at, collector_name)
            VALUES (@prefix, @keyHash, @name, @scopes, @createdAt, @collectorName)
            RETURNING {ApiKeyRow.Columns};
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        ApiKeyRecord record;
        try
        {
            var row = await connection.QuerySingleAsync<ApiKeyRow>(new CommandDefinition(sql, new
            {
                prefix,
                keyHash,
                name,
                scopes = new JsonColumn<IReadOnlyList<string>>(scopes),
                createdAt = timeProvider.GetUtcNow(),
                collectorName,
            }, tx, cancellationToken: cancellationToken));
            record = row.ToRecord();
        }
        catch (DbException ex) when (ex.IsUniqueViolation())
        {
            return null;
        }
        await audit.AppendAsync(connection, tx, AuditActions.ApiKeyIssued, Target(record), null, record, cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return record;
    }

    static string Target(ApiKeyRecord record) => $"API key {record.Prefix} ({record.Name})";

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
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var before = (await connection.QuerySingleOrDefaultAsync<ApiKeyRow>(new CommandDefinition(
            $"SELECT {ApiKeyRow.Columns} FROM api_keys WHERE prefix = @prefix;", new { prefix }, tx,
            cancellationToken: cancellationToken)))?.ToRecord();
        var row = await connection.QuerySingleOrDefaultAsync<ApiKeyRow>(new CommandDefinition(sql,
            new { prefix, revokedAt = timeProvider.GetUtcNow() }, tx, cancellationToken: cancellationToken));
        var after = row?.ToRecord();
        // Revoking twice changes nothing the second time, so it is recorded once.
        if (before is { IsActive: true } && after is not null)
            await audit.AppendAsync(connection, tx, AuditActions.ApiKeyRevoked, Target(after), before, after, cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return after;
    }
}
