using IfiDashboard.Store.Migrations;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using IfiDashboard.Store;

namespace IfiDashboard.Server.Store;

/// <summary>
/// Readiness of the store, for <c>/readyz</c>: a connection opens, no migration is pending, and a write succeeds
/// (made inside a transaction that is rolled back, so nothing changes). The description names which of the three
/// failed and never carries the store's own error text (it can name hosts and users); what failed goes to the log once
/// per outage (<see cref="StoreAvailability"/>), not with every probe.
/// A full or damaged store (<see cref="StoreFaults"/>) is not ready either, whether this check meets the fault or a
/// write of a poll met it since the last that succeeded: a write rolled back can pass on a full disk, and a damaged
/// page shows only to the write that reads it.
/// </summary>
public sealed class StoreHealth(IDbConnectionFactory connections, StoreMigrations migrations, StoreAvailability availability, StoreFaults? faults = null) : IHealthCheck
{
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
            await connection.WriteAndRollBackAsync(cancellationToken);
            availability.Answered();
            if (faults?.Current is { } current)
                return HealthCheckResult.Unhealthy(Unavailable(current.Fault) + $" A write of a poll failed so at {current.At:u} and none has succeeded since.");
            return HealthCheckResult.Healthy("The store is reachable, migrated and writable.");
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            if (StoreFaults.Of(e) is { } fault)
            {
                faults?.Record(e);
                availability.Unavailable(Unavailable(fault), e);
                return HealthCheckResult.Unhealthy(Unavailable(fault));
            }
            availability.Unavailable(step, e);
            return HealthCheckResult.Unhealthy(step);
        }
    }

    static string Unavailable(StoreFault fault) => $"The store {StoreFaults.Describe(fault)}.";
}
