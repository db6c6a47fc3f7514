using Dapper;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Store.Audit;
using IfiDashboard.Shared.Security;

namespace IfiDashboard.Store.Policy;

/// <summary>The versioned IFI policy and its waivers; every change is audited in its own transaction.</summary>
public sealed class PolicyStore(IDbConnectionFactory connections, TimeProvider time, AuditLog audit)
{

    const string NotRevokedWaiverSql = $"""
        SELECT {WaiverRow.Columns}
        FROM waivers
        WHERE id = @waiverId AND revoked_at IS NULL;
        """;

    /// <summary>The policy in force: the newest rules and every waiver that is not revoked (expired ones included; they stop counting by themselves).</summary>
    public async Task<PolicyDocument> GetCurrentAsync(CancellationToken ct)
    {
        const string rulesSql = "SELECT version AS Version, rules AS Rules FROM policy_versions ORDER BY version DESC LIMIT 1;";
        const string waiversSql = $"""
            SELECT {WaiverRow.Columns}
            FROM waivers
            WHERE revoked_at IS NULL;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var latest = await connection.QuerySingleOrDefaultAsync<RulesRow>(new CommandDefinition(rulesSql, cancellationToken: ct));
        var waivers = await connection.QueryAsync<WaiverRow>(new CommandDefinition(waiversSql, cancellationToken: ct));
        return new PolicyDocument
        {
            Version = (int)(latest?.Version ?? 0),
            Rules = latest?.Rules.Value ?? [],
            Waivers = waivers.Select(w => w.ToWaiver()).ToList(),
        };
    }

    /// <summary>Saves the rules as a new version and returns its number.</summary>
    public async Task<int> SaveRulesAsync(IReadOnlyList<PolicyRule> rules, string author, CancellationToken ct)
    {
        const string sql = """
            INSERT INTO policy_versions (version, rules, author, created_at)
            VALUES ((SELECT COALESCE(MAX(version), 0) + 1 FROM policy_versions), @rules, @author, @createdAt)
            RETURNING version;
            """;
        const string previousSql = "SELECT version AS Version, rules AS Rules FROM policy_versions ORDER BY version DESC LIMIT 1;";
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var previous = await connection.QuerySingleOrDefaultAsync<RulesRow>(new CommandDefinition(previousSql, transaction: tx, cancellationToken: ct));
        var version = await connection.ExecuteScalarAsync<int>(new CommandDefinition(sql, new
        {
            rules = new JsonColumn<IReadOnlyList<PolicyRule>>(rules),
            author,
            createdAt = time.GetUtcNow(),
        }, tx, cancellationToken: ct));
        await audit.AppendAsync(connection, tx, AuditActions.PolicySaved, $"policy version {version}",
            previous is null ? null : new { version = previous.Version, rules = previous.Rules.Value },
            new { version, rules }, ct);
        await tx.CommitAsync(ct);
        return version;
    }

    public async Task<long> GrantWaiverAsync(Waiver waiver, CancellationToken ct)
    {
        const string sql = """
            INSERT INTO waivers (instance_id, reason, author, author_identity, granted_at, expires_at, needs_approval)
            VALUES (@instanceId, @reason, @author, @authorIdentity, @grantedAt, @expiresAt, @needsApproval)
            RETURNING id;
            """;
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var id = await connection.ExecuteScalarAsync<long>(new CommandDefinition(sql, new
        {
            instanceId = waiver.InstanceId,
            reason = waiver.Reason,
            author = waiver.Author,
            authorIdentity = waiver.AuthorIdentity,
            grantedAt = waiver.GrantedAt,
            expiresAt = waiver.ExpiresAt,
            needsApproval = waiver.NeedsApproval ? 1 : 0,
        }, tx, cancellationToken: ct));
        await audit.AppendAsync(connection, tx, AuditActions.WaiverGranted, $"waiver {id} (instance {waiver.InstanceId})", null, waiver, ct);
        await tx.CommitAsync(ct);
        return id;
    }

    /// <summary>Ends a waiver in force, or rejects one waiting for approval.</summary>
    /// <returns>False when no waiver with that id is in force or waiting.</returns>
    public async Task<bool> RevokeWaiverAsync(long waiverId, string revokedBy, CancellationToken ct)
    {
        const string sql = """
            UPDATE waivers SET revoked_at = @now, revoked_by = @revokedBy
            WHERE id = @waiverId AND revoked_at IS NULL;
            """;
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var before = await connection.QuerySingleOrDefaultAsync<WaiverRow>(new CommandDefinition(NotRevokedWaiverSql, new { waiverId }, tx, cancellationToken: ct));
        var now = time.GetUtcNow();
        if (before is null || await connection.ExecuteAsync(new CommandDefinition(sql,
                new { waiverId, revokedBy, now }, tx, cancellationToken: ct)) != 1)
            return false;
        await audit.AppendAsync(connection, tx, AuditActions.WaiverRevoked, $"waiver {waiverId} (instance {before.InstanceId})",
            before.ToWaiver(), new { revokedAt = now, revokedBy }, ct);
        await tx.CommitAsync(ct);
        return true;
    }

    /// <summary>
    /// Records the second person's approval of a pending waiver, checked inside the write transaction so two approvers
    /// (or an approval racing a revocation) cannot both succeed.
    /// </summary>
    /// <param name="refusalFor">Given the pending waiver, why this approver may not approve it, or null.</param>
    public async Task<WaiverApproval> ApproveWaiverAsync(long waiverId, Person approver, Func<Waiver, string?> refusalFor, CancellationToken ct)
    {
        const string sql = """
            UPDATE waivers SET approved_by = @approvedBy, approved_by_identity = @approvedByIdentity, approved_at = @now
            WHERE id = @waiverId AND revoked_at IS NULL AND needs_approval = 1 AND approved_at IS NULL;
            """;
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var before = await connection.QuerySingleOrDefaultAsync<WaiverRow>(new CommandDefinition(NotRevokedWaiverSql, new { waiverId }, tx, cancellationToken: ct));
        if (before?.ToWaiver() is not { IsPendingApproval: true } waiver) return new WaiverApproval(false, null);
        if (refusalFor(waiver) is { } refusal) return new WaiverApproval(false, refusal);
        var now = time.GetUtcNow();
        await connection.ExecuteAsync(new CommandDefinition(sql,
            new { waiverId, approvedBy = approver.Name, approvedByIdentity = approver.Identity, now }, tx, cancellationToken: ct));
        await audit.AppendAsync(connection, tx, AuditActions.WaiverApproved, $"waiver {waiverId} (instance {waiver.InstanceId})",
            waiver, new { approvedAt = now, approvedBy = approver.Name, approvedByIdentity = approver.Identity }, ct);
        await tx.CommitAsync(ct);
        return new WaiverApproval(true, null);
    }

    /// <summary>Waivers not revoked, with their store ids, for the policy page.</summary>
    public async Task<IReadOnlyList<(long Id, Waiver Waiver)>> ListWaiversAsync(CancellationToken ct)
    {
        const string sql = $"""
            SELECT {WaiverRow.Columns}
            FROM waivers
            WHERE revoked_at IS NULL
            ORDER BY expires_at;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<WaiverRow>(new CommandDefinition(sql, cancellationToken: ct));
        return rows.Select(r => (r.Id, r.ToWaiver())).ToList();
    }

    sealed class RulesRow
    {
        public long Version { get; init; }
        public JsonColumn<IReadOnlyList<PolicyRule>> Rules { get; init; } = new([]);
    }

    sealed class WaiverRow
    {
        public const string Columns =
            "id AS Id, instance_id AS InstanceId, reason AS Reason, author AS Author, author_identity AS AuthorIdentity, " +
            "granted_at AS GrantedAt, expires_at AS ExpiresAt, needs_approval AS NeedsApproval, approved_by AS ApprovedBy, " +
            "approved_by_identity AS ApprovedByIdentity, approved_at AS ApprovedAt";

        public long Id { get; init; }
        public long InstanceId { get; init; }
        public string Reason { get; init; } = "";
        public string Author { get; init; } = "";
        public string? AuthorIdentity { get; init; }
        public DateTimeOffset GrantedAt { get; init; }
        public DateTimeOffset ExpiresAt { get; init; }
        public long NeedsApproval { get; init; }
        public string? ApprovedBy { get; init; }
        public string? ApprovedByIdentity { get; init; }
        public DateTimeOffset? ApprovedAt { get; init; }

        public Waiver ToWaiver() => new()
        {
            InstanceId = InstanceId,
            Reason = Reason,
            Author = Author,
            AuthorIdentity = AuthorIdentity,
            GrantedAt = GrantedAt,
            ExpiresAt = ExpiresAt,
            NeedsApproval = NeedsApproval != 0,
            ApprovedBy = ApprovedBy,
            ApprovedByIdentity = ApprovedByIdentity,
            ApprovedAt = ApprovedAt,
        };
    }
}

/// <param name="Approved">True when this call approved the waiver.</param>
/// <param name="Refusal">Why the approver may not approve it; null with Approved false means no pending waiver has that id.</param>
public sealed record WaiverApproval(bool Approved, string? Refusal);
