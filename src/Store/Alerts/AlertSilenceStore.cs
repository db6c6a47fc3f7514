using System.Data.Common;
using Dapper;
using IfiDashboard.Store.Audit;
using IfiDashboard.Shared.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>
/// Acknowledgements, snoozes and silences (<c>alert_silences</c>). Each change a person makes is audited in its own
/// write transaction; the alert evaluation reads the active ones and ends acknowledgements inside its own.
/// </summary>
public sealed class AlertSilenceStore(IDbConnectionFactory connections, TimeProvider time, AuditLog audit)
{
    /// <summary>Who ended an acknowledgement whose alert resolved.</summary>
    public const string Resolved = "resolved";

    const string Columns = """
        id AS Id, kind AS Kind, instance_id AS InstanceId, environment AS Environment, tag AS Tag, reason AS Reason,
        created_by AS CreatedBy, created_at AS CreatedAt, expires_at AS ExpiresAt, ended_at AS EndedAt, ended_by AS EndedBy
        """;

    // Times are stored as fixed-width UTC text (StoreTime), so text order is time order on both stores.
    const string ActiveSql = $"SELECT {Columns} FROM alert_silences WHERE ended_at IS NULL AND expires_at > @now ORDER BY expires_at, id;";

    public async Task<long> AddAsync(AlertSilence silence, CancellationToken ct)
    {
        const string sql = """
            INSERT INTO alert_silences (kind, instance_id, environment, tag, reason, created_by, created_at, expires_at)
            VALUES (@kind, @instanceId, @environment, @tag, @reason, @createdBy, @createdAt, @expiresAt)
            RETURNING id;
            """;
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var id = await connection.ExecuteScalarAsync<long>(new CommandDefinition(sql, new
        {
            kind = silence.Kind.ToString(),
            instanceId = silence.InstanceId,
            environment = silence.Environment,
            tag = silence.Tag,
            reason = silence.Reason,
            createdBy = silence.CreatedBy,
            createdAt = silence.CreatedAt,
            expiresAt = silence.ExpiresAt,
        }, tx, cancellationToken: ct));
        var action = silence.Kind switch
        {
            SilenceKind.Acknowledgement => AuditActions.AlertAcknowledged,
            SilenceKind.Snooze => AuditActions.AlertSnoozed,
            _ => AuditActions.AlertSilenced,
        };
        await audit.AppendAsync(connection, tx, action, $"silence {id} ({silence.Scope()})", null, silence with { Id = id }, ct);
        await tx.CommitAsync(ct);
        return id;
    }

    /// <summary>Ends an active silence now.</summary>
    /// <returns>False when no active silence has that id (ended, expired, or never there).</returns>
    public async Task<bool> EndAsync(long id, string endedBy, CancellationToken ct)
    {
        const string select = $"SELECT {Columns} FROM alert_silences WHERE id = @id;";
        const string end = "UPDATE alert_silences SET ended_at = @now, ended_by = @endedBy WHERE id = @id AND ended_at IS NULL;";
        var now = time.GetUtcNow();
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var before = (await connection.QuerySingleOrDefaultAsync<SilenceRow>(new CommandDefinition(select, new { id }, tx, cancellationToken: ct)))?.ToSilence();
        if (before is null || !before.IsActiveAt(now)
            || await connection.ExecuteAsync(new CommandDefinition(end, new { id, endedBy, now }, tx, cancellationToken: ct)) != 1)
            return false;
        await audit.AppendAsync(connection, tx, AuditActions.AlertSilenceEnded, $"silence {id} ({before.Scope()})", before,
            new { endedAt = now, endedBy }, ct);
        await tx.CommitAsync(ct);
        return true;
    }

    /// <summary>The silences in force now, the soonest to end first.</summary>
    public async Task<IReadOnlyList<AlertSilence>> ListActiveAsync(CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<SilenceRow>(new CommandDefinition(ActiveSql,
            new { now = time.GetUtcNow() }, cancellationToken: ct));
        return rows.Select(r => r.ToSilence()).ToList();
    }

    /// <summary>The silences with these ids, ended or not (what the history's silenced rows name).</summary>
    public async Task<IReadOnlyList<AlertSilence>> FindAsync(IReadOnlyCollection<long> ids, CancellationToken ct)
    {
        if (ids.Count == 0) return [];
        const string sql = $"SELECT {Columns} FROM alert_silences WHERE id = @id;";
        await using var connection = await connections.OpenAsync(ct);
        var found = new List<AlertSilence>();
        foreach (var id in ids.Distinct())
            if (await connection.QuerySingleOrDefaultAsync<SilenceRow>(new CommandDefinition(sql, new { id }, cancellationToken: ct)) is { } row)
                found.Add(row.ToSilence());
        return found;
    }

    /// <summary>The silences in force at <paramref name="now"/>, read by an alert evaluation (inside its transaction when it writes).</summary>
    internal static async Task<IReadOnlyList<AlertSilence>> ActiveAsync(DbConnection connection, DbTransaction? tx, DateTimeOffset now, CancellationToken ct) =>
        (await connection.QueryAsync<SilenceRow>(new CommandDefinition(ActiveSql, new { now }, tx, cancellationToken: ct)))
            .Select(r => r.ToSilence()).ToList();

    /// <summary>Ends acknowledgements whose alert resolved, inside the evaluation that saw it resolve.</summary>
    internal async Task EndResolvedAsync(DbConnection connection, DbTransaction tx, IReadOnlyList<AlertSilence> acknowledgements,
        DateTimeOffset now, CancellationToken ct)
    {
        const string end = "UPDATE alert_silences SET ended_at = @now, ended_by = @endedBy WHERE id = @id AND ended_at IS NULL;";
        foreach (var acknowledgement in acknowledgements)
        {
            await connection.ExecuteAsync(new CommandDefinition(end,
                new { id = acknowledgement.Id, endedBy = Resolved, now }, tx, cancellationToken: ct));
            await audit.AppendAsync(connection, tx, AuditActions.AlertSilenceEnded, $"silence {acknowledgement.Id} ({acknowledgement.Scope()})",
                acknowledgement, new { endedAt = now, endedBy = Resolved }, ct);
        }
    }

    sealed class SilenceRow
    {
        public long Id { get; init; }
        public string Kind { get; init; } = "";
        public long? InstanceId { get; init; }
        public string? Environment { get; init; }
        public string? Tag { get; init; }
        public string Reason { get; init; } = "";
        public string CreatedBy { get; init; } = "";
        public DateTimeOffset CreatedAt { get; init; }
        public DateTimeOffset ExpiresAt { get; init; }
        public DateTimeOffset? EndedAt { get; init; }
        public string? EndedBy { get; init; }

        public AlertSilence ToSilence() => new()
        {
            Id = Id, Kind = Enum.Parse<SilenceKind>(Kind), InstanceId = InstanceId, Environment = Environment, Tag = Tag,
            Reason = Reason, CreatedBy = CreatedBy, CreatedAt = CreatedAt, ExpiresAt = ExpiresAt,
            EndedAt = EndedAt, EndedBy = EndedBy,
        };
    }
}
