using System.Data.Common;
using Dapper;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Shared.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>
/// Per-instance alert episodes. An evaluation reads them and decides without the store's writer lock (composing mails
/// can take seconds on a busy machine, and every snapshot and lease would wait that long), then writes the changes and
/// the resulting outbox rows in one write transaction (BEGIN IMMEDIATE on SQLite) only if what it decided on is still
/// what is stored; otherwise it decides again under the lock. So a second evaluator (another thread or another server
/// on the same store) never has its decisions decided over: no alert is decided twice.
/// </summary>
public sealed class AlertStateStore(IDbConnectionFactory connections, TimeProvider time, AlertSilenceStore silences)
{
    /// <param name="decide">Given the open episodes, the instances whose baseline was taken and the silences in force.</param>
    /// <returns>How many outbox rows were written.</returns>
    public async Task<int> EvaluateAsync(
        Func<IReadOnlyList<AlertState>, IReadOnlySet<long>, IReadOnlyList<AlertSilence>, (AlertPlan Plan, IReadOnlyList<OutboxMessage> Messages)> decide,
        CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        var seen = await ReadInputsAsync(connection, null, time.GetUtcNow(), ct);
        var (plan, messages) = decide(seen.States, seen.Baselined, seen.Silences);
        if (plan.IsEmpty && messages.Count == 0) return 0;

        await using var tx = await connection.BeginWriteAsync(ct);
        var now = time.GetUtcNow();
        var current = await ReadInputsAsync(connection, tx, now, ct);
        if (!current.Equals(seen))
        {
            // Another evaluation wrote (or a silence started or ended) since the read: decide on what is stored now.
            (plan, messages) = decide(current.States, current.Baselined, current.Silences);
            if (plan.IsEmpty && messages.Count == 0) return 0;
        }

        const string insertBaseline = "INSERT INTO alert_baselines (instance_id, taken_at) VALUES (@instanceId, @takenAt);";
        const string delete = "DELETE FROM alert_states WHERE instance_id = @instanceId AND rule = @rule;";
        const string upsert = """
            INSERT INTO alert_states (instance_id, rule, subject, opened_at, notified_at, notify_count)
            VALUES (@instanceId, @rule, @subject, @openedAt, @notifiedAt, @notifyCount)
            ON CONFLICT (instance_id, rule) DO UPDATE SET subject = excluded.subject, opened_at = excluded.opened_at,
                notified_at = excluded.notified_at, notify_count = excluded.notify_count;
            """;
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

    const string StatesSql = """
        SELECT instance_id AS InstanceId, rule AS Rule, subject AS Subject, opened_at AS OpenedAt,
            notified_at AS NotifiedAt, notify_count AS NotifyCount
        FROM alert_states ORDER BY instance_id, rule;
        """;

    public async Task<IReadOnlyList<AlertState>> ListAsync(CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        return await ReadStatesAsync(connection, null, ct);
    }

    static async Task<IReadOnlyList<AlertState>> ReadStatesAsync(DbConnection connection, DbTransaction? tx, CancellationToken ct) =>
        (await connection.QueryAsync<StateRow>(new CommandDefinition(StatesSql, transaction: tx, cancellationToken: ct)))
            .Select(r => r.ToState()).ToList();

    static async Task<DecisionInputs> ReadInputsAsync(DbConnection connection, DbTransaction? tx, DateTimeOffset now, CancellationToken ct)
    {
        const string selectBaselines = "SELECT instance_id FROM alert_baselines;";
        var states = await ReadStatesAsync(connection, tx, ct);
        var baselined = (await connection.QueryAsync<long>(new CommandDefinition(selectBaselines, transaction: tx, cancellationToken: ct))).ToHashSet();
        var active = await AlertSilenceStore.ActiveAsync(connection, tx, now, ct);
        return new DecisionInputs(states, baselined, active);
    }

    /// <summary>What an evaluation decides on; equal when every episode, baseline and silence is.</summary>
    sealed record DecisionInputs(IReadOnlyList<AlertState> States, HashSet<long> Baselined, IReadOnlyList<AlertSilence> Silences)
    {
        public bool Equals(DecisionInputs? other) => other is not null && States.SequenceEqual(other.States)
            && Baselined.SetEquals(other.Baselined) && Silences.SequenceEqual(other.Silences);

        public override int GetHashCode() => HashCode.Combine(States.Count, Baselined.Count, Silences.Count);
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
