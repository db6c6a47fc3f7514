using System.Collections.Concurrent;
using System.Data.Common;
using Dapper;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Store.Alerts;
using IfiDashboard.Server.Store.Audit;

namespace IfiDashboard.Server.Store.Collectors;

/// <summary>One instance a lease took from the collector that leased it before.</summary>
public sealed record Takeover(long InstanceId, string InstanceName, string TakenFrom);

/// <summary>
/// When each collector was last heard from (table <c>collectors</c>: a lease or a delivery) and which instances one took
/// from another (<c>collector_takeovers</c>). What lets an instance stay with the collector that leased it last until
/// that one falls silent (<see cref="Inventory.StoreInstanceSource"/>; docs/security.md, "What one stolen collector key
/// can and cannot do").
/// </summary>
public sealed class CollectorStore(IDbConnectionFactory connections, TimeProvider time)
{
    /// <summary>A collector's deliveries refresh its row at most this often (each lease does).</summary>
    public static readonly TimeSpan DeliveryRefresh = TimeSpan.FromSeconds(10);

    /// <summary>Takeovers by one collector are counted over this window against <c>Ingestion:TakeoverAlertThreshold</c>.</summary>
    public static readonly TimeSpan TakeoverAlertWindow = TimeSpan.FromHours(1);

    // A collector heard from again after a silence longer than the takeover delay starts a new active period.
    const string HeardLeasingSql = """
        INSERT INTO collectors (name, first_seen_at, active_since, last_seen_at, last_lease_at)
        VALUES (@name, @now, @now, @now, @now)
        ON CONFLICT (name) DO UPDATE SET
            active_since = CASE WHEN collectors.last_seen_at >= @silentSince THEN collectors.active_since ELSE @now END,
            last_seen_at = @now, last_lease_at = @now
        RETURNING active_since;
        """;

    const string HeardDeliveringSql = """
        INSERT INTO collectors (name, first_seen_at, active_since, last_seen_at, last_delivery_at)
        VALUES (@name, @now, @now, @now, @now)
        ON CONFLICT (name) DO UPDATE SET
            active_since = CASE WHEN collectors.last_seen_at >= @silentSince THEN collectors.active_since ELSE @now END,
            last_seen_at = @now, last_delivery_at = @now;
        """;

    readonly ConcurrentDictionary<string, DateTimeOffset> _deliveryNoted = new(StringComparer.Ordinal);

    /// <summary>Notes a lease request, inside the lease's write transaction.</summary>
    /// <returns>Since when the collector has been heard from without a silence longer than <paramref name="takeoverDelay"/>.</returns>
    internal static Task<DateTimeOffset> HeardLeasingAsync(DbConnection connection, DbTransaction tx, string name,
        DateTimeOffset now, TimeSpan takeoverDelay, CancellationToken ct) =>
        connection.QuerySingleAsync<DateTimeOffset>(new CommandDefinition(HeardLeasingSql,
            new { name, now, silentSince = now - takeoverDelay }, tx, cancellationToken: ct));

    /// <summary>Notes a delivered snapshot, at most every <see cref="DeliveryRefresh"/> per collector and server.</summary>
    public async Task HeardDeliveringAsync(string name, TimeSpan takeoverDelay, CancellationToken ct)
    {
        var now = time.GetUtcNow();
        if (_deliveryNoted.TryGetValue(name, out var noted) && now - noted < DeliveryRefresh)
            return;
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        await connection.ExecuteAsync(new CommandDefinition(HeardDeliveringSql,
            new { name, now, silentSince = now - takeoverDelay }, tx, cancellationToken: ct));
        await tx.CommitAsync(ct);
        _deliveryNoted[name] = now;
    }

    /// <summary>
    /// Records the takeovers of one lease inside its write transaction: a row each, one audit entry, and, when they
    /// bring the collector's takeovers in the last <see cref="TakeoverAlertWindow"/> to <paramref name="alertThreshold"/>,
    /// one alert mail to <paramref name="recipients"/>.
    /// </summary>
    internal static async Task RecordTakeoversAsync(DbConnection connection, DbTransaction tx, AuditLog audit,
        string collector, IReadOnlyList<Takeover> taken, DateTimeOffset now, int alertThreshold,
        IReadOnlyList<string> recipients, CancellationToken ct)
    {
        const string countSql = """
            SELECT COUNT(*) FROM collector_takeovers WHERE collector_name = @collector AND taken_at > @since;
            """;
        const string insertSql = """
            INSERT INTO collector_takeovers (taken_at, instance_id, collector_name, taken_from)
            VALUES (@now, @instanceId, @collector, @takenFrom);
            """;
        if (taken.Count == 0)
            return;
        var before = await connection.ExecuteScalarAsync<long>(new CommandDefinition(countSql,
            new { collector, since = now - TakeoverAlertWindow }, tx, cancellationToken: ct));
        await connection.ExecuteAsync(new CommandDefinition(insertSql,
            taken.Select(t => new { now, instanceId = t.InstanceId, collector, takenFrom = t.TakenFrom }), tx, cancellationToken: ct));
        await audit.AppendAsync(connection, tx, AuditActions.CollectorTookOver, $"collector {collector}", null,
            new { instances = taken.Select(t => new { id = t.InstanceId, name = t.InstanceName, from = t.TakenFrom }) }, ct,
            AuditActor.Collector(collector, null));
        var after = before + taken.Count;
        if (before < alertThreshold && after >= alertThreshold)
            await OutboxWriter.InsertAsync(connection, tx,
                [new OutboxMessage($"CollectorTakeover:{collector}:{StoreTime.ToText(now)}", AlertNoticeKind.CollectorTakeover,
                    null, null, null, recipients, CollectorMailComposer.Takeovers(collector, after, taken, now))], now, ct);
    }
}
