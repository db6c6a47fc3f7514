using System.Data.Common;
using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>The SQL behind <c>instance_state</c> and <c>ifi_changes</c>, run inside the ingestion transaction.</summary>
internal static class InstanceStateStore
{
    /// <summary>Adds the read of the instance's state row to <paramref name="reads"/>; the row (or null) is set when it ran.</summary>
    public static void AddRead(StatementBatch reads, long instanceId, Action<InstanceStateRow?> read)
    {
        const string sql = $"""
            SELECT {InstanceStateRow.Columns}
            FROM instance_state
            WHERE instance_id = @instanceId;
            """;
        reads.Add(sql, async (reader, ct) => read(await reader.ReadAsync(ct) ? reader.GetRowParser<InstanceStateRow>()(reader) : null),
            ("instanceId", instanceId));
    }

    /// <summary>
    /// The latest poll's state, its count (<c>polls_stored</c>) and what it read of the default trace, the server's
    /// clock and the cluster, in one statement: every snapshot runs it, so each statement saved is one per poll.
    /// </summary>
    public static void AddUpsert(StatementBatch writes, InstanceStateRow state, TraceClockAndCluster read)
    {
        const string sql = """
            INSERT INTO instance_state (instance_id, last_poll_id, last_poll_at, last_good_poll_id, last_good_poll_at,
                product_version, product_level, product_update_level, edition, engine_edition, host_platform,
                server_name, engine_service_account, engine_ifi_enabled, engine_last_startup_time,
                ifi_state, ifi_unknown_reason, last_outcome, last_message,
                polls_stored, default_trace, server_utc_offset_minutes, evidence_since, is_clustered, cluster_nodes)
            VALUES (@InstanceId, @LastPollId, @LastPollAt, @LastGoodPollId, @LastGoodPollAt,
                @ProductVersion, @ProductLevel, @ProductUpdateLevel, @Edition, @EngineEdition, @HostPlatform,
                @ServerName, @EngineServiceAccount, @EngineIfiEnabled, @EngineLastStartupTime,
                @IfiState, @IfiUnknownReason, @LastOutcome, @LastMessage,
                1, @DefaultTrace, @ServerUtcOffsetMinutes, @EvidenceSince, @IsClustered,
                CASE WHEN @IsClustered = 0 THEN NULL ELSE @ClusterNodes END)
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
                last_message = excluded.last_message,
                polls_stored = instance_state.polls_stored + 1,
                default_trace = COALESCE(excluded.default_trace, instance_state.default_trace),
                server_utc_offset_minutes = COALESCE(excluded.server_utc_offset_minutes, instance_state.server_utc_offset_minutes),
                evidence_since = CASE WHEN instance_state.evidence_since IS NULL OR excluded.evidence_since < instance_state.evidence_since
                                      THEN COALESCE(excluded.evidence_since, instance_state.evidence_since)
                                      ELSE instance_state.evidence_since END,
                is_clustered = COALESCE(excluded.is_clustered, instance_state.is_clustered),
                cluster_nodes = CASE WHEN excluded.is_clustered = 0 THEN NULL
                                     ELSE COALESCE(excluded.cluster_nodes, instance_state.cluster_nodes) END;
            """;
        writes.Add(sql,
            ("InstanceId", state.InstanceId), ("LastPollId", state.LastPollId), ("LastPollAt", state.LastPollAt),
            ("LastGoodPollId", state.LastGoodPollId), ("LastGoodPollAt", state.LastGoodPollAt),
            ("ProductVersion", state.ProductVersion), ("ProductLevel", state.ProductLevel),
            ("ProductUpdateLevel", state.ProductUpdateLevel), ("Edition", state.Edition), ("EngineEdition", state.EngineEdition),
            ("HostPlatform", state.HostPlatform), ("ServerName", state.ServerName),
            ("EngineServiceAccount", state.EngineServiceAccount), ("EngineIfiEnabled", state.EngineIfiEnabled),
            ("EngineLastStartupTime", state.EngineLastStartupTime), ("IfiState", state.IfiState),
            ("IfiUnknownReason", state.IfiUnknownReason), ("LastOutcome", state.LastOutcome), ("LastMessage", state.LastMessage),
            ("DefaultTrace", read.DefaultTrace), ("ServerUtcOffsetMinutes", read.ServerUtcOffsetMinutes),
            ("EvidenceSince", read.EvidenceSince), ("IsClustered", read.IsClustered), ("ClusterNodes", read.ClusterNodes));
    }

    /// <summary>
    /// Counts a poll delivered late, which leaves the state alone (the latest is counted by <see cref="AddUpsert"/>):
    /// its growth events are new facts all the same, and the assessment re-reads an instance's facts only when its
    /// state row changed.
    /// </summary>
    public static void AddLatePollCount(StatementBatch writes, long instanceId) =>
        writes.Add("UPDATE instance_state SET polls_stored = polls_stored + 1 WHERE instance_id = @instanceId;",
            ("instanceId", instanceId));

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

/// <summary>What a poll read of the default trace, the server's clock and the cluster; null where it read nothing.</summary>
internal sealed record TraceClockAndCluster(string? DefaultTrace, int? ServerUtcOffsetMinutes, DateTimeOffset? EvidenceSince,
    int? IsClustered, string? ClusterNodes)
{
    public static TraceClockAndCluster Of(InstanceSnapshot snapshot) => new(
        snapshot.DefaultTrace is { } trace ? (trace.Enabled ? "Enabled" : "Disabled") : null,
        snapshot.ServerUtcOffsetMinutes,
        // A trace read with no event at all is evidence from this poll on.
        snapshot.DefaultTrace is { Enabled: true, CurrentPath: not null } read
            && snapshot.Probes.Any(p => p.Probe == ProbeNames.GrowthEvents && p.Outcome == OutcomeClass.Ok)
            ? read.OldestEventAt ?? snapshot.StartedAt
            : null,
        snapshot.Identity is { } identity ? (identity.IsClustered ? 1 : 0) : null,
        snapshot.ClusterNodes is { } nodes ? string.Join(',', nodes) : null);
}
