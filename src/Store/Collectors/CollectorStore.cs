using System.Collections.Concurrent;
using System.Data.Common;
using Dapper;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Store.Collectors;

/// <summary>What a collector reports of itself with a lease request (the embedded one: its version only).</summary>
public sealed record CollectorReport(string? Version, int? OutboxDepth);

/// <summary>One collector as the collectors page and <c>GET /api/v1/collectors</c> show it.</summary>
public sealed record CollectorStatus(string Name, string? Version, DateTimeOffset FirstSeenAt, DateTimeOffset LastSeenAt,
    DateTimeOffset? LastLeaseAt, DateTimeOffset? LastDeliveryAt, long? OutboxDepth, long Assigned, long PolledLastDay, bool Silent);

/// <summary>One instance a lease took from the collector that leased it before.</summary>
public sealed record Takeover(long InstanceId, string InstanceName, string TakenFrom);

/// <summary>
/// When each collector was last heard from (table <c>collectors</c>: a lease or a delivery) and which instances one took
/// from another (<c>collector_takeovers</c>). What lets an instance stay with the collector that leased it last until
/// that one falls silent (<see cref="Inventory.StoreInstanceSource"/>; docs/security.md, "What one stolen collector key
/// can and cannot do").
/// </summary>
public sealed class CollectorStore(IDbConnectionFactory connections, TimeProvider time, IOptions<AlertRecipientOptions>? alerts = null)
{
    /// <summary>A collector's deliveries refresh its row at most this often (each lease does).</summary>
    public static readonly TimeSpan DeliveryRefresh = TimeSpan.FromSeconds(10);

    /// <summary>Takeovers by one collector are counted over this window against <c>Ingestion:TakeoverAlertThreshold</c>.</summary>
    public static readonly TimeSpan TakeoverAlertWindow = TimeSpan.FromHours(1);

    // A collector heard from again after a silence longer than the takeover delay starts a new active period.
    const string HeardLeasingSql = """
        INSERT INTO collectors (name, first_seen_at, active_since, last_seen_at, last_lease_at, version, outbox_depth)
        VALUES (@name, @now, @now, @now, @now, @version, @outboxDepth)
        ON CONFLICT (name) DO UPDATE SET
            active_since = CASE WHEN collectors.last_seen_at >= @silentSince THEN collectors.active_since ELSE @now END,
            last_seen_at = @now, last_lease_at = @now, version = @version, outbox_depth = @outboxDepth
        RETURNING active_since;
        """;

    const string HeardDeliveringSql = """
        INSERT INTO collectors (name, first_seen_at, active_since, last_seen_at, last_delivery_at)
        VALUES (@name, @now, @now, @now, @now)
        ON CONFLICT (name) DO UPDATE SET
            active_since = CASE WHEN collectors.last_seen_at >= @silentSince THEN collectors.active_since ELSE @now END,
            last_seen_at = @now, last_delivery_at = @now
        """;

    // Writes nothing (a row count of 0) when the collector's silence was mailed and not yet answered (MailBackAsync).
    const string HeardDeliveringUnlessSilenceMailedSql = $"""
        {HeardDeliveringSql}
        WHERE collectors.silence_alerted_at IS NULL OR collectors.silence_alerted_at <= collectors.last_seen_at
        """;

    readonly ConcurrentDictionary<string, DateTimeOffset> _deliveryNoted = new(StringComparer.Ordinal);

    /// <summary>Notes a lease request, inside the lease's write transaction.</summary>
    /// <returns>Since when the collector has been heard from without a silence longer than <paramref name="takeoverDelay"/>.</returns>
    internal static async Task<DateTimeOffset> HeardLeasingAsync(DbConnection connection, DbTransaction tx, string name,
        CollectorReport report, DateTimeOffset now, TimeSpan takeoverDelay, IReadOnlyList<string> recipients, CancellationToken ct)
    {
        await MailBackAsync(connection, tx, name, now, recipients, ct);
        return await connection.QuerySingleAsync<DateTimeOffset>(new CommandDefinition(HeardLeasingSql,
            new { name, now, silentSince = now - takeoverDelay, version = report.Version, outboxDepth = (long?)report.OutboxDepth },
            tx, cancellationToken: ct));
    }

    /// <summary>
    /// Mails the administrators once when a collector whose silence was mailed (<see cref="MailSilentCollectorsAsync"/>)
    /// is heard from again, before its contact is noted: each silence mail has one "back" mail.
    /// </summary>
    static async Task MailBackAsync(DbConnection connection, DbTransaction tx, string name, DateTimeOffset now,
        IReadOnlyList<string> recipients, CancellationToken ct)
    {
        const string sql = """
            SELECT last_seen_at FROM collectors
            WHERE name = @name AND silence_alerted_at IS NOT NULL AND silence_alerted_at > last_seen_at;
            """;
        if (await connection.QuerySingleOrDefaultAsync<DateTimeOffset?>(new CommandDefinition(sql, new { name }, tx, cancellationToken: ct))
            is { } silentSince)
            await OutboxWriter.InsertAsync(connection, tx, [new OutboxMessage(
                $"CollectorBack:{name}:{StoreTime.ToText(silentSince)}", AlertNoticeKind.CollectorBack, null, null, null,
                recipients, CollectorMailComposer.Back(name, silentSince, now))], now, ct);
    }

    /// <summary>
    /// Mails the administrators once for each collector that has fallen silent (no lease, no delivery for the takeover
    /// delay) since it was last heard from. Run in a lease by a collector heard from throughout that time, so that an
    /// outage of the server or the store, which silences every collector, mails nothing.
    /// </summary>
    internal static async Task MailSilentCollectorsAsync(DbConnection connection, DbTransaction tx, DateTimeOffset now,
        DateTimeOffset silentSince, IReadOnlyList<string> recipients, CancellationToken ct)
    {
        const string sql = """
            UPDATE collectors SET silence_alerted_at = @now
            WHERE last_seen_at < @silentSince AND (silence_alerted_at IS NULL OR silence_alerted_at < last_seen_at)
            RETURNING name AS Name, last_seen_at AS LastSeenAt;
            """;
        var silent = (await connection.QueryAsync<SilentCollector>(new CommandDefinition(sql, new { now, silentSince }, tx,
            cancellationToken: ct))).ToList();
        if (silent.Count > 0)
            await OutboxWriter.InsertAsync(connection, tx, silent.Select(c => new OutboxMessage(
                $"CollectorSilent:{c.Name}:{StoreTime.ToText(c.LastSeenAt)}", AlertNoticeKind.CollectorSilent, null, null, null,
                recipients, CollectorMailComposer.Silent(c.Name, c.LastSeenAt, now))), now, ct);
    }

    sealed class SilentCollector
    {
        public string Name { get; init; } = "";
        public DateTimeOffset LastSeenAt { get; init; }
    }

    /// <summary>Every collector ever heard from, by name, with its instances and its polls stored in the last day.</summary>
    public async Task<IReadOnlyList<CollectorStatus>> ListAsync(TimeSpan takeoverDelay, CancellationToken ct)
    {
        const string sql = """
            SELECT c.name AS Name, c.version AS Version, c.first_seen_at AS FirstSeenAt, c.last_seen_at AS LastSeenAt,
                c.last_lease_at AS LastLeaseAt, c.last_delivery_at AS LastDeliveryAt, c.outbox_depth AS OutboxDepth,
                (SELECT COUNT(*) FROM instances i WHERE i.last_leased_by = c.name AND i.retired_at IS NULL) AS Assigned,
                (SELECT COUNT(*) FROM polls p WHERE p.collector_name = c.name AND p.started_at >= @dayAgo) AS PolledLastDay
            FROM collectors c
            ORDER BY c.name;
            """;
        var now = time.GetUtcNow();
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<StatusRow>(new CommandDefinition(sql, new { dayAgo = now.AddDays(-1) }, cancellationToken: ct));
        return [.. rows.Select(r => new CollectorStatus(r.Name, r.Version, r.FirstSeenAt, r.LastSeenAt, r.LastLeaseAt,
            r.LastDeliveryAt, r.OutboxDepth, r.Assigned, r.PolledLastDay, r.LastSeenAt < now - takeoverDelay))];
    }

    sealed class StatusRow
    {
        public string Name { get; init; } = "";
        public string? Version { get; init; }
        public DateTimeOffset FirstSeenAt { get; init; }
        public DateTimeOffset LastSeenAt { get; init; }
        public DateTimeOffset? LastLeaseAt { get; init; }
        public DateTimeOffset? LastDeliveryAt { get; init; }
        public long? OutboxDepth { get; init; }
        public long Assigned { get; init; }
        public long PolledLastDay { get; init; }
    }

    /// <summary>
    /// Notes a delivered snapshot, at most every <see cref="DeliveryRefresh"/> per collector and server. Usually one
    /// statement that locks the collector's row only: a store-wide write here (every 10 s per collector) made every
    /// snapshot behind it wait (docs/benchmarks.md, "Ingestion replay"). Only a collector whose silence was mailed
    /// and not yet answered takes the store-wide path, where its "back" mail is written (<see cref="MailBackAsync"/>).
    /// </summary>
    public async Task HeardDeliveringAsync(string name, TimeSpan takeoverDelay, CancellationToken ct)
    {
        var now = time.GetUtcNow();
        if (_deliveryNoted.TryGetValue(name, out var noted) && now - noted < DeliveryRefresh)
            return;
        await using var connection = await connections.OpenAsync(ct);
        // The upsert's condition is checked on the row as locked, after any lease that marked this collector silent
        // has committed; a lease that marks it later sees the new last_seen_at and does not (MailSilentCollectorsAsync).
        if (await connection.ExecuteAsync(new CommandDefinition(HeardDeliveringUnlessSilenceMailedSql,
                new { name, now, silentSince = now - takeoverDelay }, cancellationToken: ct)) == 0)
            await HeardDeliveringAfterSilenceMailAsync(connection, name, now, takeoverDelay, ct);
        _deliveryNoted[name] = now;
    }

    async Task HeardDeliveringAfterSilenceMailAsync(DbConnection connection, string name, DateTimeOffset now,
        TimeSpan takeoverDelay, CancellationToken ct)
    {
        await using var tx = await connection.BeginWriteAsync(ct);
        await MailBackAsync(connection, tx, name, now, alerts?.Value.DefaultTo ?? [], ct);
        await connection.ExecuteAsync(new CommandDefinition(HeardDeliveringSql,
            new { name, now, silentSince = now - takeoverDelay }, tx, cancellationToken: ct));
        await tx.CommitAsync(ct);
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
