using System.Data.Common;
using Dapper;
using IfiDashboard.Store.Alerts;

namespace IfiDashboard.Store.Retention;

/// <summary>
/// Deletes one batch of finished alert mails (Sent or Failed) written before the cut-off. Pending mail is never
/// touched: the delivery loop still owns it. Deleting an old row cannot let a decision send twice: a dedupe key names
/// one alert episode and notification (or one digest day), and those are decided once, long before any cut-off.
/// </summary>
internal static class AlertOutboxPruner
{
    const string Sql = """
        DELETE FROM alert_outbox
        WHERE id IN (
            SELECT id FROM alert_outbox
            WHERE created_at < @cutoff AND (status = @sent OR status = @failed OR status = @silenced)
            ORDER BY created_at, id
            LIMIT @batchSize);
        """;

    /// <returns>How many rows were deleted; fewer than <paramref name="batchSize"/> means none are left.</returns>
    public static Task<int> DeleteBatchAsync(DbConnection connection, DateTimeOffset cutoff, int batchSize, CancellationToken ct) =>
        connection.ExecuteAsync(new CommandDefinition(Sql, new
        {
            cutoff,
            sent = nameof(OutboxStatus.Sent),
            failed = nameof(OutboxStatus.Failed),
            silenced = nameof(OutboxStatus.Silenced),
            batchSize = (long)batchSize,
        }, cancellationToken: ct));
}
