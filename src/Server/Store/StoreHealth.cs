using System.Data.Common;
using IfiDashboard.Server.Store.Migrations;

namespace IfiDashboard.Server.Store;

/// <summary>Readiness of the store, for <c>/readyz</c>.</summary>
public sealed class StoreHealth(StoreMigrations migrations)
{
    /// <summary>
    /// True when a connection opens and every migration script of this release is journaled: a store that is
    /// reachable but not yet migrated is not ready to serve.
    /// </summary>
    public async Task<bool> CanReachAsync(CancellationToken cancellationToken)
    {
        try
        {
            return (await migrations.PendingScriptsAsync(cancellationToken)).Count == 0;
        }
        catch (DbException)
        {
            return false;
        }
    }
}
