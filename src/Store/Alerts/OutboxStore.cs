using Dapper;
using IfiDashboard.Compliance.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>The alert outbox: what the delivery loop sends, and what the history page shows.</summary>
public sealed class OutboxStore(IDbConnectionFactory connections, TimeProvider time)
{
    /// <summary>Stores messages decided outside an alert evaluation (the digest); returns how many were new.</summary>
    public async Task<int> AddAsync(IReadOnlyList<OutboxMessage> messages, CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var written = await OutboxWriter.InsertAsync(connection, tx, messages, time.GetUtcNow(), ct);
        await tx.CommitAsync(ct);
        return written;
    }

    /// <summary>Records a message that was already sent (or failed) outside the delivery loop: the test email.</summary>
    public async Task RecordAsync(OutboxMessage message, bool sent, string? error, CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        await OutboxWriter.InsertAsync(connection, tx, [message], time.GetUtcNow(), ct, sent ? OutboxStatus.Sent : OutboxStatus.Failed, error);
        await tx.CommitAsync(ct);
    }

    /// <summary>Alert mail (not digests or tests) written since <paramref name="since"/>, per recipient list, for storm grouping.</summary>
    public async Task<RecentAlertMail> RecentAlertMailAsync(DateTimeOffset since, CancellationToken ct)
    {
        const string sql = """
            SELECT recipients AS Recipients, kind AS Kind, COUNT(*) AS Count
            FROM alert_outbox
            WHERE created_at >= @since AND kind IN ('Opened', 'Reminder', 'Resolved', 'Grouped') AND status <> 'Silenced'
            GROUP BY recipients, kind;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = (await connection.QueryAsync<(string Recipients, string Kind, long Count)>(new CommandDefinition(sql,
            new { since }, cancellationToken: ct))).ToList();
        var single = rows.Where(r => r.Kind != nameof(AlertNoticeKind.Grouped))
            .GroupBy(r => r.Recipients).ToDictionary(g => g.Key, g => (int)g.Sum(r => r.Count));
        var grouped = rows.Where(r => r.Kind == nameof(AlertNoticeKind.Grouped)).Select(r => r.Recipients).ToHashSet();
        return new RecentAlertMail(single, grouped);
    }

    public async Task<bool> ExistsAsync(string dedupeKeyPrefix, CancellationToken ct)
    {
        const string sql = "SELECT EXISTS (SELECT 1 FROM alert_outbox WHERE dedupe_key >= @prefix AND dedupe_key < @end);";
        await using var connection = await connections.OpenAsync(ct);
        // A range instead of LIKE: the prefix may hold '_' or '%', and the range uses the unique index.
        return await connection.ExecuteScalarAsync<bool>(new CommandDefinition(sql,
            new { prefix = dedupeKeyPrefix, end = dedupeKeyPrefix + '\uffff' }, cancellationToken: ct));
    }

    /// <summary>
    /// Takes the oldest due row for this sender: in the store's write transaction its next attempt moves to
    /// <paramref name="claimFor"/> from now, so another server on the same store (or another loop) does not take it
    /// while it is being sent. Marking it sent or failed ends the claim; a sender that dies with it leaves it due again
    /// once the claim runs out (at least once, never lost). Null when nothing is due.
    /// </summary>
    /// <param name="onlyKind">Only rows of this kind (change webhooks while alerts are off), or any.</param>
    public async Task<OutboxEntry?> ClaimNextAsync(TimeSpan claimFor, CancellationToken ct, AlertNoticeKind? onlyKind = null)
    {
        var select = $"""
            SELECT {OutboxRow.Columns}
            FROM alert_outbox
            WHERE status = 'Pending' AND next_attempt_at <= @now AND (@kind IS NULL OR kind = @kind)
            ORDER BY next_attempt_at, id
            LIMIT 1;
            """;
        const string claim = "UPDATE alert_outbox SET next_attempt_at = @until WHERE id = @id;";
        var now = time.GetUtcNow();
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var row = await connection.QuerySingleOrDefaultAsync<OutboxRow>(new CommandDefinition(select,
            new { now, kind = onlyKind?.ToString() }, tx, cancellationToken: ct));
        if (row is null)
            return null;
        var entry = row.ToEntry();
        await connection.ExecuteAsync(new CommandDefinition(claim,
            new { id = entry.Id, until = now + claimFor }, tx, cancellationToken: ct));
        await tx.CommitAsync(ct);
        return entry;
    }

    /// <summary>When the next pending row is due, if any.</summary>
    public async Task<DateTimeOffset?> NextDueAsync(CancellationToken ct, AlertNoticeKind? onlyKind = null)
    {
        const string sql = "SELECT MIN(next_attempt_at) FROM alert_outbox WHERE status = 'Pending' AND (@kind IS NULL OR kind = @kind);";
        await using var connection = await connections.OpenAsync(ct);
        return await connection.ExecuteScalarAsync<DateTimeOffset?>(new CommandDefinition(sql, new { kind = onlyKind?.ToString() }, cancellationToken: ct));
    }

    public async Task MarkSentAsync(long id, CancellationToken ct)
    {
        const string sql = """
            UPDATE alert_outbox
            SET status = 'Sent', sent_at = @now, last_attempt_at = @now, attempts = attempts + 1, next_attempt_at = NULL,
                last_error = NULL
            WHERE id = @id AND status = 'Pending';
            """;
        await using var connection = await connections.OpenAsync(ct);
        await connection.ExecuteAsync(new CommandDefinition(sql, new { id, now = time.GetUtcNow() }, cancellationToken: ct));
    }

    /// <summary>Records a failed attempt: retried at <paramref name="retryAt"/>, or given up on when it is null.</summary>
    public async Task MarkAttemptFailedAsync(long id, string error, DateTimeOffset? retryAt, CancellationToken ct)
    {
        const string sql = """
            UPDATE alert_outbox
            SET status = @status, last_attempt_at = @now, attempts = attempts + 1, next_attempt_at = @retryAt, last_error = @error
            WHERE id = @id AND status = 'Pending';
            """;
        await using var connection = await connections.OpenAsync(ct);
        await connection.ExecuteAsync(new CommandDefinition(sql, new
        {
            id,
            error,
            status = (retryAt is null ? OutboxStatus.Failed : OutboxStatus.Pending).ToString(),
            now = time.GetUtcNow(),
            retryAt,
        }, cancellationToken: ct));
    }

    /// <summary>The newest rows first, for the history page.</summary>
    public async Task<IReadOnlyList<OutboxEntry>> RecentAsync(int count, CancellationToken ct)
    {
        var sql = $"SELECT {OutboxRow.Columns} FROM alert_outbox ORDER BY id DESC LIMIT @count;";
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<OutboxRow>(new CommandDefinition(sql, new { count }, cancellationToken: ct));
        return rows.Select(r => r.ToEntry()).ToList();
    }
}
