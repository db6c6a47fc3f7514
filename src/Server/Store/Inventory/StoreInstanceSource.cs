using Dapper;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Store.Inventory;

/// <summary>Leases due instances to collectors, so two collectors never poll one instance at once.</summary>
public sealed class StoreInstanceSource(IDbConnectionFactory connections, TimeProvider timeProvider) : IInstanceSource
{
    public async Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount,
        TimeSpan leaseDuration, CancellationToken cancellationToken)
    {
        // Select-and-mark is one statement inside a store write transaction: a second collector waits for the write
        // lock and then no longer sees these rows as free.
        const string sql = $"""
            UPDATE instances
            SET lease_owner = @collectorName, lease_expires_at = @leaseExpiresAt
            WHERE id IN (
                SELECT id FROM instances
                WHERE retired_at IS NULL
                  AND (next_poll_at IS NULL OR next_poll_at <= @now)
                  AND (lease_owner IS NULL OR lease_expires_at < @now)
                ORDER BY next_poll_at NULLS FIRST, id
                LIMIT @maxCount)
            RETURNING {InstanceRow.Columns}, next_poll_at AS NextPollAt;
            """;
        if (maxCount <= 0)
            return [];

        var now = timeProvider.GetUtcNow();
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(sql, new
        {
            collectorName,
            leaseExpiresAt = StoreTime.ToText(now + leaseDuration),
            now = StoreTime.ToText(now),
            maxCount,
        }, tx, cancellationToken: cancellationToken));
        var leased = rows.ToList();
        await tx.CommitAsync(cancellationToken);

        // RETURNING does not promise an order; hand out the longest-waiting first.
        return leased
            .OrderBy(r => r.NextPollAt is not null)
            .ThenBy(r => r.NextPollAt, StringComparer.Ordinal)
            .ThenBy(r => r.Id)
            .Select(r => r.ToRegistration())
            .ToList();
    }

    /// <summary>Ends the lease and schedules the next poll; does nothing if the lease has passed to another collector.</summary>
    public async Task CompleteAsync(long instanceId, string collectorName, DateTimeOffset nextPollAt,
        CancellationToken cancellationToken)
    {
        const string sql = """
            UPDATE instances
            SET lease_owner = NULL, lease_expires_at = NULL, next_poll_at = @nextPollAt
            WHERE id = @instanceId AND lease_owner = @collectorName;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql,
            new { instanceId, collectorName, nextPollAt = StoreTime.ToText(nextPollAt) }, cancellationToken: cancellationToken));
    }

    public async Task ReleaseAllAsync(string collectorName, CancellationToken cancellationToken)
    {
        const string sql = """
            UPDATE instances
            SET lease_owner = NULL, lease_expires_at = NULL
            WHERE lease_owner = @collectorName;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql, new { collectorName }, cancellationToken: cancellationToken));
    }
}
