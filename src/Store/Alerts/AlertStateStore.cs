using Dapper;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Shared.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>
/// Per-instance alert episodes. An evaluation reads them, decides and writes the changes and the resulting outbox
/// rows in one write transaction (BEGIN IMMEDIATE on SQLite), so a second evaluator (another thread or another
/// server on the same store) waits and then sees the first one's decisions: no alert is decided twice.
/// </summary>
public sealed class AlertStateStore(IDbConnectionFactory connections, TimeProvider time, AlertSilenceStore silences)
{
    /// <param name="decide">Given the open episodes, the instances whose baseline was taken and the silences in force.</param>
    /// <returns>How many outbox rows were written.</returns>
    public async Task<int> EvaluateAsync(
        Func<IReadOnlyList<AlertState>, IReadOnlySet<long>, IReadOnlyList<AlertSilence>, (AlertPlan Plan, IReadOnlyList<OutboxMessage> Messages)> decide,
        CancellationToken ct)
    {
        const string select = """
            SELECT instance_id AS InstanceId, rule AS Rule, subject AS Subject, opened_at AS OpenedAt,
                notified_at AS NotifiedAt, notify_count AS NotifyCount
            FROM alert_states;
            """;
        const string delete = "DELETE FROM alert_states WHERE instance_id = @instanceId AND rule = @rule;";
        const string upsert = """
            INSERT INTO alert_states (instance_id, rule, subject, opened_at, notified_at, notify_count)
            VALUES (@instanceId, @rule, @subject, @openedAt, @notifiedAt, @notifyCount)
            ON CONFLICT (instance_id, rule) DO UPDATE SET subject = excluded.subject, opened_at = excluded.opened_at,
                notified_at = excluded.notified_at, notify_count = excluded.notify_count;
            """;

        const string selectBaselines = "SELECT instance_id FROM alert_baselines;";
        const string insertBaseline = "INSERT INTO alert_baselines (instance_id, taken_at) VALUES (@instanceId, @takenAt);";

        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var rows = await connection.QueryAsync<StateRow>(new CommandDefinition(select, transaction: tx, cancellationToken: ct));
        var baselined = (await connection.QueryAsync<long>(new CommandDefinition(selectBaselines, transaction: tx, cancellationToken: ct))).ToHashSet();
        var now = time.GetUtcNow();
        var active = await AlertSilenceStore.ActiveAsync(connection, tx, now, ct);
        var (plan, messages) = decide(rows.Select(r => r.ToState()).ToList(), baselined, active);
        if (plan.IsEmpty && messages.Count == 0) return 0;

        await silences.EndResolvedAsync(connection, tx, plan.AcknowledgementsEnded, now, ct);
        foreach (var instanceId in plan.Baselined)
            await connection.ExecuteAsync(new CommandDefinition(insertBaseline,
                new { instanceId, takenAt = now }, tx, cancellationToken: ct));

        foreach (var (instanceId, rule) in plan.Deletes)
            await connection.ExecuteAsync(new CommandDefinition(delete, new { instanceId, rule = rule.ToString() }, tx, cancellationToken: ct));
        foreach (var state in plan.Upserts)
            await connection.ExecuteAsync(new CommandDefinition(upsert, new
            {
                instanceId = state.InstanceId,
                rule = state.Rule.ToString(),
                subject = state.Subject,
                openedAt = state.OpenedAt,
                notifiedAt = state.NotifiedAt,
                notifyCount = state.NotifyCount,
            }, tx, cancellationToken: ct));
        var written = await OutboxWriter.InsertAsync(connection, tx, messages, now, ct);
        await tx.CommitAsync(ct);
        return written;
    }

    public async Task<IReadOnlyList<AlertState>> ListAsync(CancellationToken ct)
    {
        const string sql = """
            SELECT instance_id AS InstanceId, rule AS Rule, subject AS Subject, opened_at AS OpenedAt,
                notified_at AS NotifiedAt, notify_count AS NotifyCount
            FROM alert_states ORDER BY instance_id, rule;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<StateRow>(new CommandDefinition(sql, cancellationToken: ct));
        return rows.Select(r => r.ToState()).ToList();
    }

    sealed class StateRow
    {
        public long InstanceId { get; init; }
        public string Rule { get; init; } = "";
        public string Subject { get; init; } = "";
        public DateTimeOffset OpenedAt { get; init; }
        public DateTimeOffset? NotifiedAt { get; init; }
        public long NotifyCount { get; init; }

        public AlertState ToState() => new(InstanceId, Enum.Parse<AlertRule>(Rule), Subject, OpenedAt,
            NotifiedAt, (int)NotifyCount);
    }
}
