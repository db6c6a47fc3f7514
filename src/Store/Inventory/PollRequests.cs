using Dapper;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Store.Inventory;

/// <summary>
/// "Verify now" in the store: the instances become due at once, so the next lease any collector asks for hands them
/// out, and the request is audited in the same write transaction. An instance whose lease is held keeps it; its
/// poll may have read it before the fix, so <c>verify_requested_at</c> (migration 0023) makes
/// <see cref="StoreInstanceSource.CompleteAsync"/> schedule it again at once instead of an interval later.
/// </summary>
public sealed class PollRequests(IDbConnectionFactory connections, TimeProvider time, AuditLog audit)
{
    /// <summary>Makes the active instances among <paramref name="instances"/> due now; returns the request's time.</summary>
    public async Task<DateTimeOffset> RequestAsync(IReadOnlyList<(long Id, string Name)> instances, string scope,
        AuditActor actor, CancellationToken ct)
    {
        const string sql = """
            UPDATE instances
            SET next_poll_at = CASE WHEN next_poll_at IS NULL OR next_poll_at <= @now THEN next_poll_at ELSE @now END,
                verify_requested_at = CASE WHEN lease_owner IS NOT NULL AND lease_expires_at >= @now THEN @now END
            WHERE id = @id AND retired_at IS NULL;
            """;
        var now = time.GetUtcNow();
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        // One statement per instance (at most VerifyNow:MaxInstances): no list parameter, which the two providers
        // would expand differently.
        await connection.ExecuteAsync(new CommandDefinition(sql, instances.Select(i => new { now, id = i.Id }).ToList(), tx,
            cancellationToken: ct));
        await audit.AppendAsync(connection, tx, AuditActions.VerifyRequested,
            instances is [var one] ? $"instance {one.Id} ({one.Name})" : $"{instances.Count} instances", null, new
            {
                scope,
                instances = instances.Select(i => new { id = i.Id, name = i.Name }),
            }, ct, actor);
        await tx.CommitAsync(ct);
        return now;
    }
}
