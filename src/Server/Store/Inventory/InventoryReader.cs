using Dapper;

namespace IfiDashboard.Server.Store.Inventory;

/// <summary>Reads of the inventory for the REST API: filtered id-ordered pages and lookups by the CMDB's key.</summary>
public sealed class InventoryReader(IDbConnectionFactory connections)
{
    /// <summary>Up to <c>filter.Limit + 1</c> rows, so the caller can tell whether another page follows.</summary>
    public async Task<IReadOnlyList<InventoryRecord>> ListAsync(InstanceListFilter filter, CancellationToken cancellationToken)
    {
        // Every filter is a parameter that is either NULL (off) or compared: one fixed statement per provider.
        var sql = $"""
            SELECT {InstanceRow.InventoryColumns}
            FROM instances
            WHERE id > @afterId
              AND (@includeRetired = 1 OR retired_at IS NULL)
              AND (@environment IS NULL OR lower(environment) = lower(@environment))
              AND (@owner IS NULL OR lower(owner) = lower(@owner))
              AND (@tag IS NULL OR {connections.Dialect.JsonArrayContainsIgnoringCase("instances.tags", "@tag")})
              AND (@pattern IS NULL OR lower(name) LIKE lower(@pattern) ESCAPE '\' OR lower(host) LIKE lower(@pattern) ESCAPE '\')
            ORDER BY id
            LIMIT @take;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(sql, new
        {
            afterId = filter.AfterId,
            includeRetired = filter.IncludeRetired ? 1L : 0L,
            environment = filter.Environment,
            owner = filter.Owner,
            tag = filter.Tag,
            pattern = filter.Search is { } search ? "%" + EscapeLike(search) + "%" : null,
            take = filter.Limit + 1,
        }, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToInventoryRecord()).ToList();
    }

    /// <summary>The active instance with this key; when none is active, the one retired last (its history is kept).</summary>
    public async Task<InventoryRecord?> FindByExternalKeyAsync(string externalKey, CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {InstanceRow.InventoryColumns}
            FROM instances
            WHERE external_key = @externalKey
            ORDER BY retired_at IS NULL DESC, retired_at DESC, id DESC
            LIMIT 1;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var row = await connection.QuerySingleOrDefaultAsync<InstanceRow>(
            new CommandDefinition(sql, new { externalKey }, cancellationToken: cancellationToken));
        return row?.ToInventoryRecord();
    }

    static string EscapeLike(string text) =>
        text.Replace(@"\", @"\\", StringComparison.Ordinal)
            .Replace("%", @"\%", StringComparison.Ordinal)
            .Replace("_", @"\_", StringComparison.Ordinal);
}
