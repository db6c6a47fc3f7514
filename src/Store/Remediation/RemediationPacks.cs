using Dapper;
using IfiDashboard.Compliance.Accounts;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Store.Audit;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Remediation;

/// <summary>
/// Which instances each generated remediation pack covered (migration 0016), and which of them no poll has confirmed
/// yet. "Pending" is read, never written: an instance's newest pack is pending until a poll that finished after the
/// pack was generated observed the IFI state it was to reach, its engine off LocalSystem (<see cref="ConfirmingPoll"/>),
/// so it clears on the poll that shows the change, however the change was made, and comes back only with a newer pack.
/// </summary>
public sealed class RemediationPacks(IDbConnectionFactory connections, AuditLog audit)
{
    /// <summary>Records the pack and its audit entry in one write transaction; returns the pack's id.</summary>
    public async Task<long> RecordAsync(RemediationPack pack, CancellationToken ct)
    {
        const string insertPack = """
            INSERT INTO remediation_packs (generated_at, generated_by, scope)
            VALUES (@generatedAt, @generatedBy, @scope)
            RETURNING id;
            """;
        const string insertInstance = """
            INSERT INTO remediation_pack_instances (pack_id, instance_id, action, desired_ifi)
            VALUES (@packId, @instanceId, @action, @desiredIfi);
            """;
        var instances = pack.Instances.ToList();
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var id = await connection.ExecuteScalarAsync<long>(new CommandDefinition(insertPack, new
        {
            generatedAt = pack.GeneratedAt,
            generatedBy = pack.GeneratedBy,
            scope = pack.Scope,
        }, tx, cancellationToken: ct));
        await connection.ExecuteAsync(new CommandDefinition(insertInstance, instances.Select(i => new
        {
            packId = id,
            instanceId = i.Id,
            action = i.Change.Action.ToString(),
            desiredIfi = i.Change.DesiredIfi.ToString(),
        }), tx, cancellationToken: ct));
        await audit.AppendAsync(connection, tx, AuditActions.RemediationGenerated, $"remediation pack {id}", null, new
        {
            scope = pack.Scope,
            instances = instances.Select(i => new { id = i.Id, name = i.Name, action = i.Change.Action, hosts = i.Change.Hosts }),
            skipped = pack.Skipped.Count,
        }, ct);
        await tx.CommitAsync(ct);
        return id;
    }

    /// <summary>The start accounts that mean LocalSystem, in lower case, as <see cref="ConfirmingPoll"/> compares them.</summary>
    static readonly string[] LocalSystem = ServiceAccountClassifier.LocalSystemNames.Select(n => n.ToLowerInvariant()).ToArray();

    /// <summary>
    /// A poll <c>q</c> that confirms pack entry <c>e</c> of pack <c>p</c>: started after the pack was made (a poll under
    /// way then cannot show the change), showing the IFI state the pack was to reach, with the engine not starting as
    /// LocalSystem. LocalSystem holds the right by itself, so the pack's step for such an engine is the move to its
    /// virtual account (the script changes nothing before it): IFI on while it still runs as LocalSystem confirms nothing.
    /// </summary>
    static readonly string ConfirmingPoll = $"""
        q.instance_id = e.instance_id AND q.started_at > p.generated_at AND q.ifi_state = e.desired_ifi
        AND NOT EXISTS (SELECT 1 FROM service_snapshots s
                        WHERE s.poll_id = q.id AND s.is_engine = 1
                          AND lower(trim(s.service_account)) IN ({string.Join(", ", LocalSystem.Select((_, i) => "@localSystem" + i))}))
        """;

    /// <summary>
    /// <see cref="ConfirmingPoll"/>'s parameters, one per name: Dapper expands a list for SQLite but hands Npgsql an
    /// array, so a list would need different SQL per store.
    /// </summary>
    static DynamicParameters ConfirmingPollParameters(object? others = null)
    {
        var parameters = new DynamicParameters(others);
        for (var i = 0; i < LocalSystem.Length; i++)
            parameters.Add("localSystem" + i, LocalSystem[i]);
        return parameters;
    }

    /// <summary>Each instance whose newest pack no poll has confirmed yet.</summary>
    public async Task<IReadOnlyDictionary<long, RemediationPending>> PendingAsync(CancellationToken ct)
    {
        var sql = $$"""
            SELECT e.instance_id AS InstanceId, p.id AS PackId, p.generated_at AS GeneratedAt,
                p.generated_by AS GeneratedBy, e.desired_ifi AS DesiredIfi
            FROM remediation_pack_instances e
            JOIN remediation_packs p ON p.id = e.pack_id
            WHERE NOT EXISTS (SELECT 1 FROM remediation_pack_instances newer
                              WHERE newer.instance_id = e.instance_id AND newer.pack_id > e.pack_id)
              -- A range read on ix_polls_instance_started, on every assessment.
              AND NOT EXISTS (SELECT 1 FROM polls q WHERE {{ConfirmingPoll}});
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<PendingRow>(new CommandDefinition(sql, ConfirmingPollParameters(), cancellationToken: ct));
        return rows.ToDictionary(r => r.InstanceId,
            r => new RemediationPending(r.PackId, r.GeneratedAt, r.GeneratedBy, Enum.Parse<IfiState>(r.DesiredIfi)));
    }

    /// <summary>One pack's instances, each pending or confirmed (by the first poll that showed its desired state).</summary>
    public async Task<PackStatus?> StatusAsync(long packId, CancellationToken ct)
    {
        const string packSql = """
            SELECT id AS Id, generated_at AS GeneratedAt, generated_by AS GeneratedBy, scope AS Scope
            FROM remediation_packs WHERE id = @packId;
            """;
        var instancesSql = $$"""
            SELECT e.instance_id AS InstanceId, i.name AS Name, e.action AS Action, e.desired_ifi AS DesiredIfi,
                (SELECT MIN(q.finished_at) FROM polls q WHERE {{ConfirmingPoll}}) AS ConfirmedAt
            FROM remediation_pack_instances e
            JOIN remediation_packs p ON p.id = e.pack_id
            JOIN instances i ON i.id = e.instance_id
            WHERE e.pack_id = @packId
            ORDER BY i.name, e.instance_id;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var pack = await connection.QuerySingleOrDefaultAsync<PackRow>(new CommandDefinition(packSql, new { packId }, cancellationToken: ct));
        if (pack is null) return null;
        var instances = await connection.QueryAsync<PackInstanceRow>(new CommandDefinition(instancesSql, ConfirmingPollParameters(new { packId }), cancellationToken: ct));
        return new PackStatus(pack.Id, pack.GeneratedAt, pack.GeneratedBy, pack.Scope,
            instances.Select(i => new PackInstanceStatus(i.InstanceId, i.Name, i.Action, i.DesiredIfi,
                i.ConfirmedAt)).ToList());
    }

    sealed class PendingRow
    {
        public long InstanceId { get; init; }
        public long PackId { get; init; }
        public DateTimeOffset GeneratedAt { get; init; }
        public string GeneratedBy { get; init; } = "";
        public string DesiredIfi { get; init; } = "";
    }

    sealed class PackRow
    {
        public long Id { get; init; }
        public DateTimeOffset GeneratedAt { get; init; }
        public string GeneratedBy { get; init; } = "";
        public string Scope { get; init; } = "";
    }

    sealed class PackInstanceRow
    {
        public long InstanceId { get; init; }
        public string Name { get; init; } = "";
        public string Action { get; init; } = "";
        public string DesiredIfi { get; init; } = "";
        public DateTimeOffset? ConfirmedAt { get; init; }
    }
}

public sealed record PackStatus(long Id, DateTimeOffset GeneratedAt, string GeneratedBy, string Scope,
    IReadOnlyList<PackInstanceStatus> Instances);

/// <summary>One instance of a pack: pending until <see cref="ConfirmedAt"/>, the first poll showing <see cref="DesiredIfi"/>.</summary>
public sealed record PackInstanceStatus(long InstanceId, string Name, string Action, string DesiredIfi, DateTimeOffset? ConfirmedAt)
{
    public string Status => ConfirmedAt is null ? "pending" : "confirmed";
}
