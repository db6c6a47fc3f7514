using System.Data.Common;
using Dapper;

namespace IfiDashboard.Store.Retention;

/// <summary>
/// Deletes one batch of growth events that started before the cut-off, oldest first (the start_time index gives that
/// order without a sort). Nothing references growth events; ingestion refuses events this old afterwards
/// (<see cref="RetentionHorizon"/>), so a re-read trace does not bring them back.
/// </summary>
internal static class GrowthEventPruner
{
    const string Sql = """
        DELETE FROM growth_events
        WHERE id IN (
            SELECT id FROM growth_events
            WHERE start_time < @cutoff
            ORDER BY start_time, id
            LIMIT @batchSize);
        """;

    /// <returns>How many events were deleted; fewer than <paramref name="batchSize"/> means none are left.</returns>
    public static Task<int> DeleteBatchAsync(DbConnection connection, DateTimeOffset cutoff, int batchSize, CancellationToken ct) =>
        connection.ExecuteAsync(new CommandDefinition(Sql,
            new { cutoff, batchSize = (long)batchSize }, cancellationToken: ct));
}
