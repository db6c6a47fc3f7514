using Dapper;

namespace IfiDashboard.Store.Changes;

/// <summary>
/// The CMDB keys of active instances. The compliance read model knows instances by id; integrations know them by
/// their own key, so the compliance API shows both and accepts either.
/// </summary>
public sealed class ExternalKeys(IDbConnectionFactory connections)
{
    /// <summary>Instance id → external key, for active instances registered by a CMDB.</summary>
    public async Task<IReadOnlyDictionary<long, string>> ActiveAsync(CancellationToken ct)
    {
        const string sql = """
            SELECT id AS Id, external_key AS ExternalKey
            FROM instances
            WHERE retired_at IS NULL AND external_key IS NOT NULL;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<(long Id, string ExternalKey)>(new CommandDefinition(sql, cancellationToken: ct));
        return rows.ToDictionary(r => r.Id, r => r.ExternalKey);
    }
}
