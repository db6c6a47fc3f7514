using System.Data.Common;
using Dapper;

namespace IfiDashboard.Server.Store;

/// <summary>Readiness of the store, for <c>/readyz</c>.</summary>
public sealed class StoreHealth(IDbConnectionFactory connections)
{
    /// <summary>
    /// True when a connection opens and the migration journal can be read: a store that is reachable but not yet
    /// migrated is not ready to serve.
    /// </summary>
    public async Task<bool> CanReachAsync(CancellationToken cancellationToken)
    {
        const string sql = "SELECT COUNT(*) FROM schema_versions;";
        try
        {
            await using var connection = await connections.OpenAsync(cancellationToken);
            await connection.ExecuteScalarAsync<long>(new CommandDefinition(sql, cancellationToken: cancellationToken));
            return true;
        }
        catch (DbException)
        {
            return false;
        }
    }
}
