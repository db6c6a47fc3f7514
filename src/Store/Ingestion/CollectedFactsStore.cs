using System.Data.Common;
using System.Globalization;
using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>
/// Files, TDE, growth events, backups and default-trace state of one poll. Current-state tables are replaced only by
/// a probe that succeeded, so a poll that could not read them keeps what an earlier poll learned.
/// </summary>
internal static class CollectedFactsStore
{
    /// <param name="keepEventsFrom">Growth events that started earlier are not stored (retention has or would have
    /// pruned them); null stores all.</param>
    public static async Task WriteAsync(DbConnection connection, DbTransaction tx, StoredSnapshot poll, bool isLatest,
        DateTimeOffset? keepEventsFrom, CancellationToken ct)
    {
        var snapshot = poll.Snapshot;
        // Events are history: stored whatever the order of delivery, each once.
        await InsertGrowthEventsAsync(connection, tx, poll, keepEventsFrom, ct);
        if (!isLatest) return;

        if (ProbeSucceeded(snapshot, ProbeNames.Files))
            await ReplaceFilesAsync(connection, tx, poll, ct);
        if (ProbeSucceeded(snapshot, ProbeNames.Encryption))
            await ReplaceEncryptionAsync(connection, tx, poll, ct);
        if (ProbeSucceeded(snapshot, ProbeNames.Backups))
            await ReplaceBackupsAsync(connection, tx, poll, ct);
        await AvailabilityGroupStore.WriteAsync(connection, tx, poll, ct);
        await UpdateTraceClockAndClusterAsync(connection, tx, snapshot, ct);
    }

    static bool ProbeSucceeded(InstanceSnapshot snapshot, string probe) =>
        snapshot.Probes.Any(p => p.Probe == probe && p.Outcome == OutcomeClass.Ok);

    static async Task InsertGrowthEventsAsync(DbConnection connection, DbTransaction tx, StoredSnapshot poll,
        DateTimeOffset? keepFrom, CancellationToken ct)
    {
        var events = keepFrom is { } from
            ? poll.Snapshot.GrowthEvents.Where(e => e.StartTime >= from).ToList()
            : poll.Snapshot.GrowthEvents;
        if (events.Count == 0) return;
        const string sql = """
            INSERT INTO growth_events (instance_id, database_id, database_name, file_name, event_class, start_time,
                start_time_local, end_time, duration_us, growth_pages, first_poll_id)
            VALUES (@instanceId, @databaseId, @databaseName, @fileName, @eventClass, @startTime,
                @startTimeLocal, @endTime, @durationUs, @growthPages, @pollId)
            ON CONFLICT DO NOTHING;
            """;
        var rows = events.Select(e => new
        {
            instanceId = poll.Snapshot.InstanceId,
            databaseId = e.DatabaseId,
            databaseName = e.DatabaseName,
            fileName = e.FileName,
            eventClass = e.EventClass,
            startTime = e.StartTime,
            startTimeLocal = e.StartTimeLocal is { } local ? StoreTime.ServerLocalText(local) : null,
            endTime = e.EndTime,
            durationUs = e.DurationMicroseconds,
            growthPages = e.GrowthPages,
            pollId = poll.PollId,
        });
        await connection.ExecuteAsync(new CommandDefinition(sql, rows, tx, cancellationToken: ct));
    }

    static async Task ReplaceFilesAsync(DbConnection connection, DbTransaction tx, StoredSnapshot poll, CancellationToken ct)
    {
        const string delete = "DELETE FROM database_files WHERE instance_id = @instanceId;";
        const string insert = """
            INSERT INTO database_files (instance_id, database_id, database_name, file_id, logical_name, physical_name,
                type, state_desc, size_pages, max_size_pages, growth, is_percent_growth, seen_poll_id)
            VALUES (@instanceId, @databaseId, @databaseName, @fileId, @logicalName, @physicalName,
                @type, @stateDesc, @sizePages, @maxSizePages, @growth, @isPercentGrowth, @pollId);
            """;
        var instanceId = poll.Snapshot.InstanceId;
        await connection.ExecuteAsync(new CommandDefinition(delete, new { instanceId }, tx, cancellationToken: ct));
        var rows = poll.Snapshot.Files.Select(f => new
        {
            instanceId,
            databaseId = f.DatabaseId,
            databaseName = f.DatabaseName,
            fileId = f.FileId,
            logicalName = f.LogicalName,
            physicalName = f.PhysicalName,
            type = (int)f.Type,
            stateDesc = f.StateDesc,
            sizePages = f.SizePages,
            maxSizePages = f.MaxSizePages,
            growth = f.Growth,
            isPercentGrowth = f.IsPercentGrowth ? 1L : 0L,
            pollId = poll.PollId,
        });
        await connection.ExecuteAsync(new CommandDefinition(insert, rows, tx, cancellationToken: ct));
    }

    static async Task ReplaceEncryptionAsync(DbConnection connection, DbTransaction tx, StoredSnapshot poll, CancellationToken ct)
    {
        const string delete = "DELETE FROM database_encryption WHERE instance_id = @instanceId;";
        const string insert = """
            INSERT INTO database_encryption (instance_id, database_id, encryption_state, seen_poll_id)
            VALUES (@instanceId, @databaseId, @encryptionState, @pollId);
            """;
        var instanceId = poll.Snapshot.InstanceId;
        await connection.ExecuteAsync(new CommandDefinition(delete, new { instanceId }, tx, cancellationToken: ct));
        var rows = poll.Snapshot.Encryption.Select(e => new
        {
            instanceId, databaseId = e.DatabaseId, encryptionState = e.EncryptionState, pollId = poll.PollId,
        });
        await connection.ExecuteAsync(new CommandDefinition(insert, rows, tx, cancellationToken: ct));
    }

    static async Task ReplaceBackupsAsync(DbConnection connection, DbTransaction tx, StoredSnapshot poll, CancellationToken ct)
    {
        const string delete = "DELETE FROM database_backups WHERE instance_id = @instanceId;";
        const string insert = """
            INSERT INTO database_backups (instance_id, database_name, finished_at_local, backup_size_bytes,
                compressed_size_bytes, seen_poll_id)
            VALUES (@instanceId, @databaseName, @finishedAt, @size, @compressed, @pollId);
            """;
        var instanceId = poll.Snapshot.InstanceId;
        await connection.ExecuteAsync(new CommandDefinition(delete, new { instanceId }, tx, cancellationToken: ct));
        var rows = poll.Snapshot.Backups.Select(b => new
        {
            instanceId,
            databaseName = b.DatabaseName,
            finishedAt = StoreTime.ServerLocalText(b.FinishedAtServerTime),
            size = (long)b.BackupSizeBytes,
            compressed = (long?)b.CompressedSizeBytes,
            pollId = poll.PollId,
        });
        await connection.ExecuteAsync(new CommandDefinition(insert, rows, tx, cancellationToken: ct));
    }

    static async Task UpdateTraceClockAndClusterAsync(DbConnection connection, DbTransaction tx, InstanceSnapshot snapshot, CancellationToken ct)
    {
        const string sql = """
            UPDATE instance_state
            SET default_trace = COALESCE(@defaultTrace, default_trace),
                server_utc_offset_minutes = COALESCE(@offset, server_utc_offset_minutes),
                evidence_since = CASE WHEN evidence_since IS NULL OR @evidenceSince < evidence_since
                                      THEN COALESCE(@evidenceSince, evidence_since) ELSE evidence_since END,
                is_clustered = COALESCE(@isClustered, is_clustered),
                cluster_nodes = CASE WHEN @isClustered = 0 THEN NULL ELSE COALESCE(@clusterNodes, cluster_nodes) END
            WHERE instance_id = @instanceId;
            """;
        var defaultTrace = snapshot.DefaultTrace is { } trace ? (trace.Enabled ? "Enabled" : "Disabled") : null;
        // A trace read with no event at all is evidence from this poll on.
        var evidenceSince = snapshot.DefaultTrace is { Enabled: true, CurrentPath: not null } read
            && snapshot.Probes.Any(p => p.Probe == ProbeNames.GrowthEvents && p.Outcome == OutcomeClass.Ok)
            ? read.OldestEventAt ?? snapshot.StartedAt
            : (DateTimeOffset?)null;
        await connection.ExecuteAsync(new CommandDefinition(sql,
            new
            {
                defaultTrace, offset = snapshot.ServerUtcOffsetMinutes, evidenceSince,
                isClustered = snapshot.Identity is { } identity ? (int?)(identity.IsClustered ? 1 : 0) : null,
                clusterNodes = snapshot.ClusterNodes is { } nodes ? string.Join(',', nodes) : null,
                instanceId = snapshot.InstanceId,
            },
            tx, cancellationToken: ct));
    }
}
