using System.Data.Common;
using Dapper;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Store.Inventory;

/// <summary>
/// One server, one registration: run inside the write transaction that stores the registration, so two writers
/// cannot both find the server free.
/// </summary>
internal static class SameServerCheck
{
    /// <summary>The active instance (other than <paramref name="exceptId"/>) that reaches the same server, if any.</summary>
    public static async Task<InstanceRegistration?> FindAsync(DbConnection connection, DbTransaction tx,
        InstanceRegistration registration, long? exceptId, CancellationToken ct)
    {
        const string sql = $"""
            SELECT {InstanceRow.Columns}
            FROM instances
            WHERE retired_at IS NULL;
            """;
        // Compared in code by the one rule (host spellings, default port), not narrowed in SQL by a second one.
        var key = InventoryFields.ServerKey(registration);
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(sql, transaction: tx, cancellationToken: ct));
        return rows.Select(r => r.ToRegistration())
            .FirstOrDefault(r => r.Id != exceptId && InventoryFields.ServerKey(r) == key);
    }

    /// <summary>Throws <see cref="DuplicateServerException"/> when another active instance reaches the same server.</summary>
    public static async Task EnsureFreeAsync(DbConnection connection, DbTransaction tx, InstanceRegistration registration,
        long? exceptId, CancellationToken ct)
    {
        if (await FindAsync(connection, tx, registration, exceptId, ct) is { } other)
            throw new DuplicateServerException(other.Name, InventoryFields.ServerAddress(registration));
    }
}
