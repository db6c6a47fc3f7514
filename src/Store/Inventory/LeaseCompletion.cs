namespace IfiDashboard.Store.Inventory;

/// <summary>
/// Ends a collector's lease of one instance and schedules its next poll, at most
/// <see cref="StoreInstanceSource.MaxIntervalsAhead"/> poll intervals from <paramref name="now"/>, inside a transaction
/// that holds the instance's write lock: the completion request's own (<see cref="StoreInstanceSource.CompleteAsync"/>),
/// or a delivered snapshot's (<see cref="Shared.Snapshots.InstanceSnapshot.NextPollAt"/>), where its read and its
/// write go with the snapshot's other reads and writes.
/// </summary>
internal sealed class LeaseCompletion(long instanceId, string collectorName, DateTimeOffset nextPollAt, DateTimeOffset now)
{
    const string LastLeasedHere = """
        id = @instanceId AND last_leased_by = @collectorName
        AND (lease_owner IS NULL OR lease_owner = @collectorName OR lease_expires_at < @now)
        """;

    long? _interval;

    public void AddRead(StatementBatch reads) =>
        reads.Add($"SELECT poll_interval_seconds FROM instances WHERE {LastLeasedHere};",
            async (reader, ct) => _interval = await reader.ReadAsync(ct) && !reader.IsDBNull(0) ? Convert.ToInt64(reader.GetValue(0), System.Globalization.CultureInfo.InvariantCulture) : null,
            ("instanceId", instanceId), ("collectorName", collectorName), ("now", now));

    /// <returns>False, adding nothing, when the instance has been leased to another collector since.</returns>
    public bool AddWrite(StatementBatch writes)
    {
        if (_interval is not { } interval)
            return false;
        var latest = now + TimeSpan.FromSeconds(interval * StoreInstanceSource.MaxIntervalsAhead);
        writes.Add($"""
            UPDATE instances
            SET lease_owner = NULL, lease_expires_at = NULL, next_poll_at = COALESCE(verify_requested_at, @nextPollAt),
                verify_requested_at = NULL
            WHERE {LastLeasedHere};
            """,
            ("instanceId", instanceId), ("collectorName", collectorName), ("now", now),
            ("nextPollAt", nextPollAt < latest ? nextPollAt : latest));
        return true;
    }
}
