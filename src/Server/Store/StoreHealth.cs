using System.Data.Common;
using Dapper;
using IfiDashboard.Server.Store.Migrations;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace IfiDashboard.Server.Store;

/// <summary>
/// Readiness of the store, for <c>/readyz</c>: a connection opens, no migration is pending, and a write succeeds
/// (made inside a transaction that is rolled back, so nothing changes). The description names which of the three
/// failed and never carries the store's own error text (it can name hosts and users); what failed goes to the log once
/// per outage (<see cref="StoreAvailability"/>), not with every probe.
/// </summary>
public sealed class StoreHealth(IDbConnectionFactory connections, StoreMigrations migrations, StoreAvailability availability) : IHealthCheck
{
    const string Journal = "schema_versions";

    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var step = "The store is not reachable.";
        try
        {
            await using var connection = await connections.OpenAsync(cancellationToken);
            step = "The store is not migrated.";
            var pending = await migrations.PendingScriptsAsync(cancellationToken);
            if (pending.Count > 0)
            {
                var notMigrated = $"The store has {pending.Count} migration(s) pending; the server applies them when it starts.";
                availability.Unavailable(notMigrated, new InvalidOperationException("Migrations are pending."));
                return HealthCheckResult.Unhealthy(notMigrated);
            }
            step = "The store cannot be written.";
            await WriteAndRollBackAsync(connection, cancellationToken);
            availability.Answered();
            return HealthCheckResult.Healthy("The store is reachable, migrated and writable.");
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            availability.Unavailable(step, e);
            return HealthCheckResult.Unhealthy(step);
        }
    }

    /// <summary>
    /// Rewrites the journal's rows unchanged under the store's write lock, then rolls back: fails on a read-only
    /// file, a full disk or a read-only PostgreSQL session, and leaves the store as it was.
    /// </summary>
    static async Task WriteAndRollBackAsync(DbConnection connection, CancellationToken cancellationToken)
    {
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(
            $"UPDATE {Journal} SET applied_at = applied_at;", transaction: tx, cancellationToken: cancellationToken));
        await tx.RollbackAsync(cancellationToken);
    }
}
