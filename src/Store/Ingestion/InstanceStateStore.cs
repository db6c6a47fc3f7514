using System.Data.Common;
using Dapper;

namespace IfiDashboard.Store.Ingestion;

/// <summary>The SQL behind <c>instance_state</c> and <c>ifi_changes</c>, run inside the ingestion transaction.</summary>
internal static class InstanceStateStore
{
    public static async Task<InstanceStateRow?> GetAsync(DbConnection connection, DbTransaction tx, long instanceId,
        CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {InstanceStateRow.Columns}
            FROM instance_state
            WHERE instance_id = @instanceId;
            """;
        return await connection.QuerySingleOrDefaultAsync<InstanceStateRow>(
            new CommandDefinition(sql, new { instanceId }, tx, cancellationToken: cancellationToken));
    }

    public static async Task UpsertAsync(DbConnection connection, DbTransaction tx, InstanceStateRow state,
        CancellationToken cancellationToken)
    {
        const string sql = """
            INSERT INTO instance_state (instance_id, last_poll_id, last_poll_at, last_good_poll_id, last_good_poll_at,
                product_version, product_level, product_update_level, edition, engine_edition, host_platform,
                server_name, engine_service_account, engine_ifi_enabled, engine_last_startup_time,
                ifi_state, ifi_unknown_reason, last_outcome, last_message)
            VALUES (@InstanceId, @LastPollId, @LastPollAt, @LastGoodPollId, @LastGoodPollAt,
                @ProductVersion, @ProductLevel, @ProductUpdateLevel, @Edition, @EngineEdition, @HostPlatform,
                @ServerName, @EngineServiceAccount, @EngineIfiEnabled, @EngineLastStartupTime,
                @IfiState, @IfiUnknownReason, @LastOutcome, @LastMessage)
            ON CONFLICT (instance_id) DO UPDATE SET
                last_poll_id = excluded.last_poll_id,
                last_poll_at = excluded.last_poll_at,
                last_good_poll_id = excluded.last_good_poll_id,
                last_good_poll_at = excluded.last_good_poll_at,
                product_version = excluded.product_version,
                product_level = excluded.product_level,
                product_update_level = excluded.product_update_level,
                edition = excluded.edition,
                engine_edition = excluded.engine_edition,
                host_platform = excluded.host_platform,
                server_name = excluded.server_name,
                engine_service_account = excluded.engine_service_account,
                engine_ifi_enabled = excluded.engine_ifi_enabled,
                engine_last_startup_time = excluded.engine_last_startup_time,
                ifi_state = excluded.ifi_state,
                ifi_unknown_reason = excluded.ifi_unknown_reason,
                last_outcome = excluded.last_outcome,
                last_message = excluded.last_message;
            """;
        await connection.ExecuteAsync(new CommandDefinition(sql, state, tx, cancellationToken: cancellationToken));
    }

    /// <summary>
    /// Counts a stored poll, also one delivered late that leaves the state alone: its growth events are new facts all
    /// the same, and the assessment re-reads an instance's facts only when its state row changed.
    /// </summary>
    public static Task CountStoredPollAsync(DbConnection connection, DbTransaction tx, long instanceId,
        CancellationToken cancellationToken)
    {
        const string sql = "UPDATE instance_state SET polls_stored = polls_stored + 1 WHERE instance_id = @instanceId;";
        return connection.ExecuteAsync(new CommandDefinition(sql, new { instanceId }, tx, cancellationToken: cancellationToken));
    }

    /// <summary>The collector that made a poll, read only when the poll saw a change.</summary>
    public static async Task<string?> CollectorOfAsync(DbConnection connection, DbTransaction tx, long? pollId,
        CancellationToken cancellationToken) =>
        pollId is null ? null : await connection.QuerySingleOrDefaultAsync<string>(new CommandDefinition(
            "SELECT collector_name FROM polls WHERE id = @pollId;", new { pollId }, tx, cancellationToken: cancellationToken));

    public static async Task InsertChangesAsync(DbConnection connection, DbTransaction tx, StoredSnapshot poll,
        IReadOnlyList<EngineChange> changes, CancellationToken cancellationToken)
    {
        const string sql = """
            INSERT INTO ifi_changes (instance_id, poll_id, changed_at, field, old_value, new_value, doubt)
            VALUES (@instanceId, @pollId, @changedAt, @field, @oldValue, @newValue, @doubt);
            """;
        if (changes.Count == 0)
            return;
        // The changes feed reads these by id; snapshots of other instances are written in parallel.
        await connection.TakeFeedOrderAsync(tx, cancellationToken);
        var rows = changes.Select(c => new
        {
            instanceId = poll.Snapshot.InstanceId,
            pollId = poll.PollId,
            changedAt = poll.Snapshot.FinishedAt,
            field = c.Field,
            oldValue = c.OldValue,
            newValue = c.NewValue,
            doubt = c.Doubt,
        });
        await connection.ExecuteAsync(new CommandDefinition(sql, rows, tx, cancellationToken: cancellationToken));
    }
}
