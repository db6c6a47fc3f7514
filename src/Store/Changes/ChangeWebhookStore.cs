using Dapper;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Store.Changes;

/// <summary>
/// Change webhook subscriptions (<c>change_webhooks</c>): who gets which events of the changes feed, and how far along
/// the feed each one has been given its changes. The URL and secret arrive and leave as data-protection ciphertext;
/// this class never sees them in clear.
/// </summary>
public sealed class ChangeWebhookStore(IDbConnectionFactory connections, TimeProvider time, AuditLog audit, IAuditActors actors)
{
    const string Columns = """
        id AS Id, name AS Name, url_origin AS UrlOrigin, url_protected AS UrlProtected, secret_protected AS SecretProtected,
        events AS Events, journal_cursor AS JournalCursor, timeline_cursor AS TimelineCursor, created_at AS CreatedAt,
        created_by AS CreatedBy
        """;

    /// <summary>
    /// Stores a subscription that starts at the feed's end: it is given the changes made after it, not the history
    /// (which <c>/api/v1/changes</c> serves). Audited without the URL's path or the secret.
    /// </summary>
    /// <returns>Its id, or null when an active subscription already has the name.</returns>
    public async Task<long?> CreateAsync(string name, string urlOrigin, string urlProtected, string secretProtected,
        IReadOnlyList<string> events, CancellationToken ct)
    {
        const string sql = """
            INSERT INTO change_webhooks (name, url_origin, url_protected, secret_protected, events, journal_cursor,
                timeline_cursor, created_at, created_by)
            SELECT @name, @urlOrigin, @urlProtected, @secretProtected, @events,
                (SELECT COALESCE(MAX(id), 0) FROM change_journal), (SELECT COALESCE(MAX(id), 0) FROM ifi_changes), @now, @createdBy
            WHERE NOT EXISTS (SELECT 1 FROM change_webhooks WHERE name = @name AND deleted_at IS NULL)
            RETURNING id;
            """;
        var actor = actors.Current();
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        // A store-wide write waits out every instance write, so the ends read here have all been committed.
        var id = await connection.ExecuteScalarAsync<long?>(new CommandDefinition(sql, new
        {
            name, urlOrigin, urlProtected, secretProtected,
            events = new JsonColumn<IReadOnlyList<string>>(events),
            now = time.GetUtcNow(),
            createdBy = actor.Name,
        }, tx, cancellationToken: ct));
        if (id is null)
            return null;
        await audit.AppendAsync(connection, tx, AuditActions.ChangeWebhookCreated, $"change webhook {id} ({name})", null,
            new { id, name, urlOrigin, events }, ct, actor);
        await tx.CommitAsync(ct);
        return id;
    }

    /// <summary>The subscriptions not deleted, oldest first.</summary>
    public async Task<IReadOnlyList<ChangeWebhook>> ListAsync(CancellationToken ct)
    {
        var sql = $"SELECT {Columns} FROM change_webhooks WHERE deleted_at IS NULL ORDER BY id;";
        await using var connection = await connections.OpenAsync(ct);
        return (await connection.QueryAsync<ChangeWebhookRow>(new CommandDefinition(sql, cancellationToken: ct))).Select(r => r.ToWebhook()).ToList();
    }

    /// <summary>One subscription not deleted, or null.</summary>
    public async Task<ChangeWebhook?> GetAsync(long id, CancellationToken ct)
    {
        var sql = $"SELECT {Columns} FROM change_webhooks WHERE id = @id AND deleted_at IS NULL;";
        await using var connection = await connections.OpenAsync(ct);
        return (await connection.QuerySingleOrDefaultAsync<ChangeWebhookRow>(new CommandDefinition(sql, new { id }, cancellationToken: ct)))?.ToWebhook();
    }

    /// <summary>Ends a subscription: nothing more is written for it, and its pending deliveries fail when their turn comes.</summary>
    /// <returns>False when no subscription with that id is active.</returns>
    public async Task<bool> DeleteAsync(long id, CancellationToken ct)
    {
        const string sql = "UPDATE change_webhooks SET deleted_at = @now, deleted_by = @deletedBy WHERE id = @id AND deleted_at IS NULL;";
        var actor = actors.Current();
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var before = await connection.QuerySingleOrDefaultAsync<ChangeWebhookRow>(new CommandDefinition(
            $"SELECT {Columns} FROM change_webhooks WHERE id = @id AND deleted_at IS NULL;", new { id }, tx, cancellationToken: ct));
        if (before is null || await connection.ExecuteAsync(new CommandDefinition(sql,
                new { id, now = time.GetUtcNow(), deletedBy = actor.Name }, tx, cancellationToken: ct)) != 1)
            return false;
        await audit.AppendAsync(connection, tx, AuditActions.ChangeWebhookDeleted, $"change webhook {id} ({before.Name})",
            new { id, name = before.Name, urlOrigin = before.UrlOrigin, events = before.Events.Value }, null, ct, actor);
        await tx.CommitAsync(ct);
        return true;
    }

    /// <summary>
    /// Moves a subscription's cursor from where it was read to <paramref name="journalCursor"/> and
    /// <paramref name="timelineCursor"/> and writes its deliveries, in one write transaction; nothing when another
    /// pass (another server) moved it first or it was deleted meanwhile. The outbox's dedupe key keeps each change one row
    /// even so.
    /// </summary>
    /// <returns>Whether the cursor moved.</returns>
    public async Task<bool> AdvanceAsync(ChangeWebhook webhook, long journalCursor, long timelineCursor,
        IReadOnlyList<OutboxMessage> deliveries, CancellationToken ct)
    {
        const string sql = """
            UPDATE change_webhooks SET journal_cursor = @journalCursor, timeline_cursor = @timelineCursor
            WHERE id = @id AND deleted_at IS NULL AND journal_cursor = @fromJournal AND timeline_cursor = @fromTimeline;
            """;
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var moved = await connection.ExecuteAsync(new CommandDefinition(sql, new
        {
            id = webhook.Id, journalCursor, timelineCursor, fromJournal = webhook.JournalCursor, fromTimeline = webhook.TimelineCursor,
        }, tx, cancellationToken: ct));
        if (moved != 1)
            return false;
        await OutboxWriter.InsertAsync(connection, tx, deliveries, time.GetUtcNow(), ct);
        await tx.CommitAsync(ct);
        return true;
    }

    sealed class ChangeWebhookRow
    {
        public long Id { get; init; }
        public string Name { get; init; } = "";
        public string UrlOrigin { get; init; } = "";
        public string UrlProtected { get; init; } = "";
        public string SecretProtected { get; init; } = "";
        public JsonColumn<IReadOnlyList<string>> Events { get; init; } = new([]);
        public long JournalCursor { get; init; }
        public long TimelineCursor { get; init; }
        public DateTimeOffset CreatedAt { get; init; }
        public string CreatedBy { get; init; } = "";

        public ChangeWebhook ToWebhook() => new(Id, Name, UrlOrigin, UrlProtected, SecretProtected, Events.Value, JournalCursor,
            TimelineCursor, CreatedAt, CreatedBy);
    }
}

/// <summary>
/// A change webhook subscription as stored: <see cref="UrlProtected"/> and <see cref="SecretProtected"/> are
/// ciphertext, read in clear only to post a delivery; the cursor is the last journal and IFI-timeline ids given to it.
/// </summary>
public sealed record ChangeWebhook(long Id, string Name, string UrlOrigin, string UrlProtected, string SecretProtected,
    IReadOnlyList<string> Events, long JournalCursor, long TimelineCursor, DateTimeOffset CreatedAt, string CreatedBy);
