using Dapper;

namespace IfiDashboard.Store.Inventory;

/// <summary>Reads of the inventory for the REST API: filtered, sorted pages and lookups by the CMDB's key.</summary>
public sealed class InventoryReader(IDbConnectionFactory connections)
{
    /// <summary>Up to <c>filter.Limit + 1</c> rows, so the caller can tell whether another page follows.</summary>
    public async Task<IReadOnlyList<InventoryRecord>> ListAsync(InstanceListFilter filter, CancellationToken cancellationToken)
    {
        // Keyset paging: each order's statement resumes after the previous page's last (key, id), so rows added or
        // moved while a client pages are never skipped. Every filter is a parameter that is either NULL (off) or compared.
        var (after, order) = filter.Sort switch
        {
            InstanceListSort.Name => ("(lower(name) > lower(@afterName) OR (lower(name) = lower(@afterName) AND id > @afterId))", "lower(name), id"),
            InstanceListSort.UpdatedAt => ("(COALESCE(updated_at, created_at) > @afterUpdatedAt OR (COALESCE(updated_at, created_at) = @afterUpdatedAt AND id > @afterId))",
                "COALESCE(updated_at, created_at), id"),
            _ => ("id > @afterId", "id"),
        };
        var sql = $"""
            SELECT {InstanceRow.InventoryColumns}
            FROM instances
            WHERE (@afterId = 0 OR {after})
              AND (@includeRetired = 1 OR retired_at IS NULL)
              AND (@environment IS NULL OR lower(environment) = lower(@environment))
              AND (@owner IS NULL OR lower(owner) = lower(@owner))
              AND (@tag IS NULL OR {connections.Dialect.JsonArrayContainsIgnoringCase("instances.tags", "@tag")})
              AND (@pattern IS NULL OR lower(name) LIKE lower(@pattern) ESCAPE '\' OR lower(host) LIKE lower(@pattern) ESCAPE '\')
              AND (@updatedSince IS NULL OR COALESCE(updated_at, created_at) >= @updatedSince)
            ORDER BY {order}
            LIMIT @take;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(sql, new
        {
            afterId = filter.After?.Id ?? 0,
            afterName = filter.After?.Name ?? "",
            afterUpdatedAt = filter.After?.UpdatedAt ?? DateTimeOffset.MinValue,
            includeRetired = filter.IncludeRetired ? 1L : 0L,
            environment = filter.Environment,
            owner = filter.Owner,
            tag = filter.Tag,
            pattern = filter.Search is { } search ? "%" + EscapeLike(search) + "%" : null,
            updatedSince = filter.UpdatedSince,
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
