using System.Data.Common;
using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>
/// Files, TDE, growth events and backups of one poll (its default-trace state goes with the instance's state,
/// <see cref="InstanceStateStore.UpsertAsync"/>). Current-state tables are brought to what a
/// probe that succeeded read (only the differences written, <see cref="CurrentStateList"/>), so a poll that could not
/// read them keeps what an earlier poll learned. Growth events go in one statement (<see cref="RowLists"/>).
/// </summary>
internal static class CollectedFactsStore
{
    /// <param name="keepEventsFrom">Growth events that started earlier are not stored (retention has or would have
    /// pruned them); null stores all.</param>
    public static async Task WriteAsync(DbConnection connection, DbTransaction tx, SqlDialect dialect, StoredSnapshot poll,
        bool isLatest, DateTimeOffset? keepEventsFrom, CancellationToken ct)
    {
        var snapshot = poll.Snapshot;
        // Events are history: stored whatever the order of delivery, each once.
        await InsertGrowthEventsAsync(connection, tx, dialect, poll, keepEventsFrom, ct);
        if (!isLatest) return;

        if (ProbeSucceeded(snapshot, ProbeNames.Files))
            await WriteFilesAsync(connection, tx, dialect, poll, ct);
        if (ProbeSucceeded(snapshot, ProbeNames.Encryption))
            await WriteEncryptionAsync(connection, tx, dialect, poll, ct);
        if (ProbeSucceeded(snapshot, ProbeNames.Backups))
            await WriteBackupsAsync(connection, tx, dialect, poll, ct);
        await AvailabilityGroupStore.WriteAsync(connection, tx, poll, ct);
    }

    static bool ProbeSucceeded(InstanceSnapshot snapshot, string probe) =>
        snapshot.Probes.Any(p => p.Probe == probe && p.Outcome == OutcomeClass.Ok);

    static async Task InsertGrowthEventsAsync(DbConnection connection, DbTransaction tx, SqlDialect dialect, StoredSnapshot poll,
        DateTimeOffset? keepFrom, CancellationToken ct)
    {
        var events = keepFrom is { } from
            ? poll.Snapshot.GrowthEvents.Where(e => e.StartTime >= from).ToList()
            : poll.Snapshot.GrowthEvents;
        const string sql = """
            INSERT INTO growth_events (instance_id, database_id, database_name, file_name, event_class, start_time,
                start_time_local, end_time, duration_us, growth_pages, first_poll_id)
            {rows}
            ON CONFLICT DO NOTHING;
            """;
        var rows = events.Select(e => new object?[]
        {
            poll.Snapshot.InstanceId,
            (long)e.DatabaseId,
            e.DatabaseName,
            e.FileName,
            (long)e.EventClass,
            StoreTime.ToText(e.StartTime),
            e.StartTimeLocal is { } local ? StoreTime.ServerLocalText(local) : null,
            StoreTime.ToText(e.EndTime),
            e.DurationMicroseconds,
            e.GrowthPages,
            poll.PollId,
        }).ToList();
        await connection.ExecuteAsync(tx, dialect, sql, GrowthEventColumns, rows, ct);
    }

    static readonly StoreColumn[] GrowthEventColumns =
    [
        StoreColumn.Integer, StoreColumn.Integer, StoreColumn.Text, StoreColumn.Text, StoreColumn.Integer, StoreColumn.Text,
        StoreColumn.Text, StoreColumn.Text, StoreColumn.Integer, StoreColumn.Integer, StoreColumn.Integer,
    ];

    static readonly CurrentStateList Files = new("database_files",
        [("database_id", StoreColumn.Integer), ("file_id", StoreColumn.Integer)],
        [
            ("database_name", StoreColumn.Text), ("logical_name", StoreColumn.Text), ("physical_name", StoreColumn.Text),
            ("type", StoreColumn.Integer), ("state_desc", StoreColumn.Text), ("size_pages", StoreColumn.Integer),
            ("max_size_pages", StoreColumn.Integer), ("growth", StoreColumn.Integer), ("is_percent_growth", StoreColumn.Integer),
            ("volume_mount_point", StoreColumn.Text), ("volume_id", StoreColumn.Text), ("volume_name", StoreColumn.Text),
            ("volume_total_bytes", StoreColumn.Integer), ("volume_available_bytes", StoreColumn.Integer),
        ]);

    static readonly CurrentStateList Encryption = new("database_encryption",
        [("database_id", StoreColumn.Integer)], [("encryption_state", StoreColumn.Integer)]);

    static readonly CurrentStateList Backups = new("database_backups",
        [("database_name", StoreColumn.Text)],
        [("finished_at_local", StoreColumn.Text), ("backup_size_bytes", StoreColumn.Integer), ("compressed_size_bytes", StoreColumn.Integer)]);

    static Task WriteFilesAsync(DbConnection connection, DbTransaction tx, SqlDialect dialect, StoredSnapshot poll, CancellationToken ct) =>
        Files.WriteAsync(connection, tx, dialect, poll.Snapshot.InstanceId, poll.PollId, poll.Snapshot.Files.Select(f => new object?[]
        {
            (long)f.DatabaseId, (long)f.FileId, f.DatabaseName, f.LogicalName, f.PhysicalName, (long)f.Type, f.StateDesc,
            (long)f.SizePages, (long)f.MaxSizePages, (long)f.Growth, f.IsPercentGrowth ? 1L : 0L,
            f.Volume?.MountPoint, f.Volume?.VolumeId, f.Volume?.LogicalVolumeName, f.Volume?.TotalBytes, f.Volume?.AvailableBytes,
        }), ct);

    static Task WriteEncryptionAsync(DbConnection connection, DbTransaction tx, SqlDialect dialect, StoredSnapshot poll, CancellationToken ct) =>
        Encryption.WriteAsync(connection, tx, dialect, poll.Snapshot.InstanceId, poll.PollId,
            poll.Snapshot.Encryption.Select(e => new object?[] { (long)e.DatabaseId, (long)e.EncryptionState }), ct);

    static Task WriteBackupsAsync(DbConnection connection, DbTransaction tx, SqlDialect dialect, StoredSnapshot poll, CancellationToken ct) =>
        Backups.WriteAsync(connection, tx, dialect, poll.Snapshot.InstanceId, poll.PollId, poll.Snapshot.Backups.Select(b => new object?[]
        {
            b.DatabaseName, StoreTime.ServerLocalText(b.FinishedAtServerTime), (long)b.BackupSizeBytes, (long?)b.CompressedSizeBytes,
        }), ct);
}
