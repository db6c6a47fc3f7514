using Dapper;

namespace IfiDashboard.Store.Retention;

/// <summary>
/// The store-held claim on the retention pass (table <c>retention_lease</c>, one row): servers sharing a store take it
/// before a pass, renew it after every batch and let it go at the end, so one pass runs at a time and the others skip
/// theirs. It runs out <see cref="Duration"/> after the last renewal, so a server that dies mid-pass holds it no longer.
/// </summary>
public sealed class RetentionLease(IDbConnectionFactory connections, TimeProvider time)
{
    /// <summary>Far longer than one batch and its pause; a pass renews it after each.</summary>
    public static readonly TimeSpan Duration = TimeSpan.FromMinutes(10);

    /// <summary>This server (process) as the lease names it: host and process id, never anything secret.</summary>
    public string Holder { get; } = $"{Environment.MachineName}:{Environment.ProcessId}:{Guid.NewGuid().ToString("N")[..8]}";

    /// <summary>Takes the lease if it is free or has run out; false while another server holds it.</summary>
    public Task<bool> TryTakeAsync(CancellationToken ct) => WriteAsync("""
        UPDATE retention_lease SET holder = @holder, expires_at = @until
        WHERE id = 1 AND (holder IS NULL OR expires_at <= @now);
        """, ct);

    /// <summary>Moves the expiry on; false if the lease ran out and another server took it (the pass must stop).</summary>
    public Task<bool> RenewAsync(CancellationToken ct) => WriteAsync(
        "UPDATE retention_lease SET expires_at = @until WHERE id = 1 AND holder = @holder;", ct);

    public Task ReleaseAsync(CancellationToken ct) => WriteAsync(
        "UPDATE retention_lease SET holder = NULL, expires_at = NULL WHERE id = 1 AND holder = @holder;", ct);

    /// <summary>Who holds the lease now, if anyone (for the log line of a server that skips its pass).</summary>
    public async Task<string?> CurrentHolderAsync(CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        return await connection.ExecuteScalarAsync<string?>(new CommandDefinition(
            "SELECT holder FROM retention_lease WHERE id = 1 AND expires_at > @now;",
            new { now = time.GetUtcNow() }, cancellationToken: ct));
    }

    async Task<bool> WriteAsync(string sql, CancellationToken ct)
    {
        var now = time.GetUtcNow();
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var changed = await connection.ExecuteAsync(new CommandDefinition(sql,
            new { holder = Holder, now, until = now + Duration }, tx, cancellationToken: ct));
        await tx.CommitAsync(ct);
        return changed == 1;
    }
}
