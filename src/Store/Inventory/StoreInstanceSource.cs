using System.Data.Common;
using System.Reflection;
using Dapper;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Store.Inventory;

/// <summary>
/// Leases due instances to collectors, so two collectors never poll one instance at once, and an instance stays with
/// the collector that leased it last: another takes it only after that one has been silent for
/// <c>Ingestion:TakeoverDelay</c> while the other was heard from (a collector that stopped; <see cref="CollectorStore"/>).
/// Each takeover is recorded, and many of them alert the administrators. With assignment rules
/// (<see cref="AssignmentStore"/>), an instance a rule matches is leased only by the collectors that rule names; among
/// them the same stickiness and takeover hold, and one leased last by a collector the rule does not name passes to them at
/// once (an administrator's reassignment, audited when saved, not a takeover).
/// </summary>
public sealed class StoreInstanceSource(IDbConnectionFactory connections, TimeProvider timeProvider, AuditLog audit,
    IOptions<IngestionOptions>? ingestion = null, IOptions<AlertRecipientOptions>? alerts = null, AssignmentStore? assignments = null)
    : IInstanceSource
{
    /// <summary>
    /// The furthest a completed lease may schedule the next poll, in poll intervals: a collector's jitter stays well
    /// inside it, and no collector can park an instance for years.
    /// </summary>
    public const int MaxIntervalsAhead = 2;

    /// <summary>What the embedded collector reports of itself: the server's version.</summary>
    static readonly CollectorReport Embedded = new(typeof(StoreInstanceSource).Assembly
        .GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion, null);

    public Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount,
        TimeSpan leaseDuration, CancellationToken cancellationToken) =>
        LeaseDueAsync(collectorName, maxCount, leaseDuration, maxHeld: null, cancellationToken, Embedded);

    /// <param name="maxHeld">When given, the most unexpired leases the collector may hold afterwards: it gets
    /// fewer (or none) when it already holds some.</param>
    /// <param name="report">What the collector reported of itself (version, outbox depth), kept for the collectors page.</param>
    public async Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount,
        TimeSpan leaseDuration, int? maxHeld, CancellationToken cancellationToken, CollectorReport? report = null)
    {
        if (maxCount <= 0)
            return [];

        var options = ingestion?.Value ?? new IngestionOptions();
        var now = timeProvider.GetUtcNow();
        var silentSince = now - options.TakeoverDelay;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        if (maxHeld is { } most)
        {
            var held = await connection.ExecuteScalarAsync<long>(new CommandDefinition(HeldSql,
                new { collectorName, now }, tx, cancellationToken: cancellationToken));
            maxCount = (int)Math.Min(maxCount, Math.Max(0, most - held));
            if (maxCount == 0)
                return [];
        }
        // Only a collector heard from throughout the takeover delay takes over: after an outage of the server or the
        // store every collector looks silent, and the first back must not take the others' instances.
        var activeSince = await CollectorStore.HeardLeasingAsync(connection, tx, collectorName, report ?? new(null, null), now,
            options.TakeoverDelay, alerts?.Value.DefaultTo ?? [], cancellationToken);
        var mayTakeOver = activeSince <= silentSince;
        IReadOnlyList<CollectorAssignment> rules = assignments is null ? [] : await assignments.ReadAllAsync(connection, tx, cancellationToken);
        List<InstanceRow> leased;
        IReadOnlySet<long> reassigned = new HashSet<long>();
        if (rules.Count == 0)
            leased = [.. await connection.QueryAsync<InstanceRow>(new CommandDefinition(LeaseDueSql, new
            {
                collectorName,
                leaseExpiresAt = now + leaseDuration,
                now,
                silentSince,
                mayTakeOver = mayTakeOver ? 1L : 0L,
                maxCount,
            }, tx, cancellationToken: cancellationToken))];
        else
            (leased, reassigned) = await LeaseAssignedAsync(connection, tx, rules, collectorName, maxCount, now,
                now + leaseDuration, silentSince, mayTakeOver, cancellationToken);
        await CollectorStore.RecordTakeoversAsync(connection, tx, audit, collectorName,
            [.. leased.Where(r => r.TakenFrom is not null && !reassigned.Contains(r.Id)).Select(r => new Takeover(r.Id, r.Name, r.TakenFrom!))], now,
            options.TakeoverAlertThreshold, alerts?.Value.DefaultTo ?? [], cancellationToken);
        if (mayTakeOver)
            await CollectorStore.MailSilentCollectorsAsync(connection, tx, now, silentSince, alerts?.Value.DefaultTo ?? [],
                cancellationToken);
        await tx.CommitAsync(cancellationToken);

        // RETURNING does not promise an order; hand out the longest-waiting first.
        return leased
            .OrderBy(r => r.NextPollAt is not null)
            .ThenBy(r => r.NextPollAt, StringComparer.Ordinal)
            .ThenBy(r => r.Id)
            .Select(r => r.ToRegistration())
            .ToList();
    }

    /// <summary>
    /// Select-and-mark in one statement inside a store write transaction: a second collector waits for the write lock
    /// and then no longer sees these rows as free. Read through <c>ix_instances_lease_order</c> (migration 0033).
    /// </summary>
    internal const string LeaseDueSql = $"""
        {MarkLeasedSql}
        WHERE id IN (
            SELECT id FROM instances
            WHERE {DueAndFree}
              AND (last_leased_by IS NULL OR last_leased_by = @collectorName
                   OR @mayTakeOver = 1 AND NOT EXISTS (SELECT 1 FROM collectors
                       WHERE collectors.name = instances.last_leased_by AND collectors.last_seen_at >= @silentSince))
            ORDER BY {LeaseOrder}
            LIMIT @maxCount)
        {ReturningSql}
        """;

    // SET reads the row as it was, so leased_since and taken_from change only when the instance passes to another
    // collector, and RETURNING names the collector it came from.
    const string MarkLeasedSql = """
        UPDATE instances
        SET lease_owner = @collectorName, lease_expires_at = @leaseExpiresAt, last_leased_by = @collectorName,
            leased_since = CASE WHEN last_leased_by = @collectorName AND leased_since IS NOT NULL THEN leased_since ELSE @now END,
            taken_from = CASE WHEN last_leased_by = @collectorName THEN taken_from ELSE last_leased_by END
        """;

    const string ReturningSql = $"""
        RETURNING {InstanceRow.Columns}, next_poll_at AS NextPollAt,
            CASE WHEN leased_since = @now THEN taken_from END AS TakenFrom;
        """;

    const string DueAndFree = """
        retired_at IS NULL
          AND (next_poll_at IS NULL OR next_poll_at <= @now)
          AND (lease_owner IS NULL OR lease_expires_at < @now)
        """;

    const string LeaseOrder = "next_poll_at NULLS FIRST, id";

    /// <summary>
    /// The lease selection under assignment rules: the rules match in code (a network rule reads the host as an IP
    /// address, which SQL on both stores cannot), over the due and free instances, inside the lease's write transaction.
    /// </summary>
    /// <returns>The leased rows, and those that passed to this collector because a rule no longer names the one that had them.</returns>
    static async Task<(List<InstanceRow> Leased, IReadOnlySet<long> Reassigned)> LeaseAssignedAsync(DbConnection connection,
        DbTransaction tx, IReadOnlyList<CollectorAssignment> rules, string collectorName, int maxCount, DateTimeOffset now,
        DateTimeOffset leaseExpiresAt, DateTimeOffset silentSince, bool mayTakeOver, CancellationToken ct)
    {
        const string heardSql = "SELECT name FROM collectors WHERE last_seen_at >= @silentSince;";
        var heard = (await connection.QueryAsync<string>(new CommandDefinition(heardSql, new { silentSince }, tx, cancellationToken: ct)))
            .ToHashSet(StringComparer.Ordinal);
        var chosen = new List<long>();
        var reassigned = new HashSet<long>();
        foreach (var instance in await AssignmentStore.ReadAssignableAsync(connection, tx, DueAndFree, new { now }, ct, LeaseOrder))
        {
            var assigned = CollectorAssignments.RuleFor(rules, instance.ToAssignable()) is { } rule ? rules[rule].Collectors : null;
            if (assigned is not null && !assigned.Contains(collectorName, StringComparer.Ordinal))
                continue;
            var last = instance.LastLeasedBy;
            var movedByRule = last is not null && assigned is not null && !assigned.Contains(last, StringComparer.Ordinal);
            if (last is null || last == collectorName || movedByRule || mayTakeOver && !heard.Contains(last))
            {
                chosen.Add(instance.Id);
                if (movedByRule)
                    reassigned.Add(instance.Id);
                if (chosen.Count == maxCount)
                    break;
            }
        }
        var leased = new List<InstanceRow>();
        if (chosen.Count == 0)
            return (leased, reassigned);
        foreach (var (filter, parameters) in FactsReader.InstanceFilters(chosen, new { collectorName, leaseExpiresAt, now }))
            leased.AddRange(await connection.QueryAsync<InstanceRow>(new CommandDefinition(
                $"{MarkLeasedSql} WHERE {filter!("id")} {ReturningSql}", parameters, tx, cancellationToken: ct)));
        return (leased, reassigned);
    }

    /// <summary>
    /// Ends the lease and schedules the next poll, at most <see cref="MaxIntervalsAhead"/> poll intervals from now, or
    /// at once when "verify now" was asked during the lease (<see cref="PollRequests"/>);
    /// does nothing if the instance has been leased to another collector since. The collector that leased it last may
    /// complete it after its lease ended: a standalone collector reports the polls it made while the server was down
    /// (Collector:OutageRideThroughMinutes), so the server keeps the collector's spread-out schedule.
    /// </summary>
    public async Task CompleteAsync(long instanceId, string collectorName, DateTimeOffset nextPollAt,
        CancellationToken cancellationToken)
    {
        await using var connection = await connections.OpenAsync(cancellationToken);
        // One instance's row: an instance write, as a snapshot is, so that completions from several collectors do not
        // queue behind one store-wide lock (measured: docs/benchmarks.md, "Four collectors"). Leasing stays store-wide.
        await using var tx = await connection.BeginInstanceWriteAsync(instanceId, cancellationToken);
        var completion = new LeaseCompletion(instanceId, collectorName, nextPollAt, timeProvider.GetUtcNow());
        var batch = new StatementBatch();
        completion.AddRead(batch);
        await batch.ExecuteAsync(connection, tx, cancellationToken);
        if (!completion.AddWrite(batch))
            return;
        await batch.ExecuteAsync(connection, tx, cancellationToken);
        await tx.CommitAsync(cancellationToken);
    }

    /// <summary>How many unexpired leases the collector holds.</summary>
    public async Task<long> CountHeldAsync(string collectorName, CancellationToken cancellationToken)
    {
        await using var connection = await connections.OpenAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<long>(new CommandDefinition(HeldSql,
            new { collectorName, now = timeProvider.GetUtcNow() }, cancellationToken: cancellationToken));
    }

    /// <summary>The unexpired leases a collector holds, read through <c>ix_instances_lease_holder</c> (migration 0033).</summary>
    internal const string HeldSql = """
        SELECT COUNT(*) FROM instances
        WHERE lease_owner = @collectorName AND lease_expires_at >= @now AND retired_at IS NULL;
        """;

    public async Task ReleaseAllAsync(string collectorName, CancellationToken cancellationToken)
    {
        const string sql = """
            UPDATE instances
            SET lease_owner = NULL, lease_expires_at = NULL
            WHERE lease_owner = @collectorName;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql, new { collectorName }, cancellationToken: cancellationToken));
    }
}
