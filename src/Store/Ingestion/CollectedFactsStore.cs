using System.Data.Common;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>
/// Files, TDE, growth events and backups of one poll (its default-trace state goes with the instance's state,
/// <see cref="InstanceStateStore.AddUpsert"/>). Current-state tables are brought to what a
/// probe that succeeded read (only the differences written, <see cref="CurrentStateList"/>), so a poll that could not
/// read them keeps what an earlier poll learned. Growth events go in one statement (<see cref="RowLists"/>).
/// </summary>
internal static class CollectedFactsStore
{
    /// <summary>
    /// Adds to <paramref name="reads"/> the reads of the stored current-state rows that the poll's probes read anew,
    /// so that they go with the snapshot's other reads.
    /// </summary>
    public static StoredLists AddReads(StatementBatch reads, InstanceSnapshot snapshot) => new(
        ProbeSucceeded(snapshot, ProbeNames.Files) ? Files.AddRead(reads, snapshot.InstanceId) : null,
        ProbeSucceeded(snapshot, ProbeNames.Encryption) ? Encryption.AddRead(reads, snapshot.InstanceId) : null,
        ProbeSucceeded(snapshot, ProbeNames.Backups) ? Backups.AddRead(reads, snapshot.InstanceId) : null);

    /// <param name="writes">Where the growth events and the current-state differences go (the availability groups,
    /// which read as they write, are written at once).</param>
    /// <param name="stored">What <see cref="AddReads"/> read.</param>
    /// <param name="keepEventsFrom">Growth events that started earlier are not stored (retention has or would have
    /// pruned them); null stores all.</param>
    public static async Task WriteAsync(DbConnection connection, DbTransaction tx, SqlDialect dialect, StatementBatch writes,
        StoredSnapshot poll, bool isLatest, StoredLists stored, DateTimeOffset? keepEventsFrom, CancellationToken ct)
    {
        // Events are history: stored whatever the order of delivery, each once.
        AddGrowthEvents(writes, dialect, poll, keepEventsFrom);
        if (!isLatest) return;

        if (stored.Files is { } files)
            AddFiles(writes, dialect, poll, files);
        if (stored.Encryption is { } encryption)
            AddEncryption(writes, dialect, poll, encryption);
        if (stored.Backups is { } backups)
            AddBackups(writes, dialect, poll, backups);
        await AvailabilityGroupStore.WriteAsync(connection, tx, poll, ct);
    }

    /// <summary>The stored rows of the lists a poll read anew; null for a list its probe did not read.</summary>
    internal sealed record StoredLists(CurrentStateList.StoredRows? Files, CurrentStateList.StoredRows? Encryption,
        CurrentStateList.StoredRows? Backups);

    static bool ProbeSucceeded(InstanceSnapshot snapshot, string probe) =>
        snapshot.Probes.Any(p => p.Probe == probe && p.Outcome == OutcomeClass.Ok);

    static void AddGrowthEvents(StatementBatch writes, SqlDialect dialect, StoredSnapshot poll, DateTimeOffset? keepFrom)
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
        writes.AddRows(dialect, sql, GrowthEventColumns, rows);
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

    static void AddFiles(StatementBatch writes, SqlDialect dialect, StoredSnapshot poll, CurrentStateList.StoredRows stored) =>
        Files.AddWrites(writes, dialect, stored, poll.Snapshot.InstanceId, poll.PollId, poll.Snapshot.Files.Select(f => new object?[]
        {
            (long)f.DatabaseId, (long)f.FileId, f.DatabaseName, f.LogicalName, f.PhysicalName, (long)f.Type, f.StateDesc,
            (long)f.SizePages, (long)f.MaxSizePages, (long)f.Growth, f.IsPercentGrowth ? 1L : 0L,
            f.Volume?.MountPoint, f.Volume?.VolumeId, f.Volume?.LogicalVolumeName, f.Volume?.TotalBytes, f.Volume?.AvailableBytes,
        }));

    static void AddEncryption(StatementBatch writes, SqlDialect dialect, StoredSnapshot poll, CurrentStateList.StoredRows stored) =>
        Encryption.AddWrites(writes, dialect, stored, poll.Snapshot.InstanceId, poll.PollId,
            poll.Snapshot.Encryption.Select(e => new object?[] { (long)e.DatabaseId, (long)e.EncryptionState }));

    static void AddBackups(StatementBatch writes, SqlDialect dialect, StoredSnapshot poll, CurrentStateList.StoredRows stored) =>
        Backups.AddWrites(writes, dialect, stored, poll.Snapshot.InstanceId, poll.PollId, poll.Snapshot.Backups.Select(b => new object?[]
        {
            b.DatabaseName, StoreTime.ServerLocalText(b.FinishedAtServerTime), (long)b.BackupSizeBytes, (long?)b.CompressedSizeBytes,
        }));
}
