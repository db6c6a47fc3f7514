using System.Data.Common;
using Dapper;
using IfiDashboard.Server.Store.Audit;

namespace IfiDashboard.Server.Store.Inventory;

/// <summary>
/// Writes the CMDB makes through the REST API: upsert one instance by its external key, retire one, or sync the
/// whole desired inventory. Each call is one write transaction, so a rejected or failed call changes nothing; each
/// instance it creates, updates or retires is audited in that transaction.
/// </summary>
public sealed class CmdbInventoryWriter(IDbConnectionFactory connections, TimeProvider timeProvider, AuditLog audit)
{
    /// <param name="precondition">Checked against the current active instance (null when none) inside the
    /// transaction, so a concurrent change cannot slip between the check and the write.</param>
    public async Task<UpsertOutcome> UpsertAsync(DesiredInstance desired, Func<InventoryRecord?, bool> precondition,
        CancellationToken cancellationToken)
    {
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var current = await FindActiveAsync(connection, tx, desired.ExternalKey, cancellationToken);
        if (!precondition(current))
            return new UpsertOutcome(UpsertResult.PreconditionFailed, current);
        if (await NameTakenAsync(connection, tx, desired, cancellationToken))
            return new UpsertOutcome(UpsertResult.NameConflict, current);
        if (await SameServerCheck.FindAsync(connection, tx, desired.Registration, current?.Registration.Id, cancellationToken) is { } other)
            return new UpsertOutcome(UpsertResult.ServerConflict, current, other.Name);

        var now = timeProvider.GetUtcNow();
        UpsertResult result;
        if (current is null)
        {
            await InsertAsync(connection, tx, desired, now, cancellationToken);
            result = UpsertResult.Created;
        }
        else if (InventoryFields.Same(current.Registration, desired.Registration))
        {
            return new UpsertOutcome(UpsertResult.Unchanged, current);
        }
        else
        {
            await UpdateAsync(connection, tx, current, desired, now, cancellationToken);
            result = UpsertResult.Updated;
        }
        var written = await FindActiveAsync(connection, tx, desired.ExternalKey, cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return new UpsertOutcome(result, written);
    }

    /// <summary>Retires the active instance with this key; its row and history stay. Null when none is active.</summary>
    public async Task<InventoryRecord?> RetireAsync(string externalKey, CancellationToken cancellationToken)
    {
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var current = await FindActiveAsync(connection, tx, externalKey, cancellationToken);
        if (current is null)
            return null;
        await RetireAsync(connection, tx, current, timeProvider.GetUtcNow(), cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return current;
    }

    /// <summary>
    /// Brings the CMDB-registered instances to <paramref name="desired"/>: creates, updates, and (when
    /// <paramref name="retireMissing"/>) retires CMDB instances it leaves out. All or nothing; a dry run or a name
    /// conflict writes nothing.
    /// </summary>
    public async Task<SyncOutcome> SyncAsync(IReadOnlyList<DesiredInstance> desired, bool dryRun, bool retireMissing,
        CancellationToken cancellationToken)
    {
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var plan = SyncPlan.Compute(await ListActiveAsync(connection, tx, cancellationToken), desired, retireMissing);
        if (dryRun || plan.NameConflicts.Count > 0 || plan.ServerConflicts.Count > 0)
            return plan.ToOutcome();

        var now = timeProvider.GetUtcNow();
        // Renames go through a placeholder first, so that two instances swapping names never collide mid-way.
        // Placeholders start with '#', which no valid name does.
        foreach (var (current, desiredItem) in plan.Updates)
        {
            if (!string.Equals(current.Registration.Name, desiredItem.Registration.Name, StringComparison.Ordinal))
                await connection.ExecuteAsync(new CommandDefinition(
                    "UPDATE instances SET name = @placeholder WHERE id = @id;",
                    new { placeholder = "#sync-" + current.Registration.Id, id = current.Registration.Id }, tx,
                    cancellationToken: cancellationToken));
        }
        foreach (var record in plan.Retires)
            await RetireAsync(connection, tx, record, now, cancellationToken);
        foreach (var (current, desiredItem) in plan.Updates)
            await UpdateAsync(connection, tx, current, desiredItem, now, cancellationToken);
        foreach (var item in plan.Creates)
            await InsertAsync(connection, tx, item, now, cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return plan.ToOutcome();
    }

    static async Task<IReadOnlyList<InventoryRecord>> ListActiveAsync(DbConnection connection, DbTransaction tx,
        CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {InstanceRow.InventoryColumns}
            FROM instances
            WHERE retired_at IS NULL;
            """;
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(sql, transaction: tx, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToInventoryRecord()).ToList();
    }

    static async Task<InventoryRecord?> FindActiveAsync(DbConnection connection, DbTransaction tx, string externalKey,
        CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {InstanceRow.InventoryColumns}
            FROM instances
            WHERE external_key = @externalKey AND retired_at IS NULL;
            """;
        var row = await connection.QuerySingleOrDefaultAsync<InstanceRow>(
            new CommandDefinition(sql, new { externalKey }, tx, cancellationToken: cancellationToken));
        return row?.ToInventoryRecord();
    }

    /// <summary>An active instance other than the one under this key already has the name (ignoring case).</summary>
    static async Task<bool> NameTakenAsync(DbConnection connection, DbTransaction tx, DesiredInstance desired,
        CancellationToken cancellationToken)
    {
        const string sql = """
            SELECT COUNT(*)
            FROM instances
            WHERE retired_at IS NULL
              AND lower(name) = lower(@name)
              AND (external_key IS NULL OR external_key <> @externalKey);
            """;
        return await connection.ExecuteScalarAsync<long>(new CommandDefinition(sql,
            new { name = desired.Registration.Name, externalKey = desired.ExternalKey }, tx,
            cancellationToken: cancellationToken)) > 0;
    }

    async Task InsertAsync(DbConnection connection, DbTransaction tx, DesiredInstance desired, DateTimeOffset now,
        CancellationToken cancellationToken)
    {
        const string sql = """
            INSERT INTO instances (name, host, port, instance_name, environment, owner, tags, encrypt,
                trust_server_certificate, host_name_in_certificate, server_certificate_path, credential_name, poll_interval_seconds, created_at,
                external_key, version)
            VALUES (@name, @host, @port, @instanceName, @environment, @owner, @tags, @encrypt,
                @trustServerCertificate, @hostNameInCertificate, @serverCertificatePath, @credentialName, @pollIntervalSeconds, @createdAt,
                @externalKey, 1);
            """;
        var parameters = new DynamicParameters(InstanceRow.Parameters(desired.Registration, now));
        parameters.Add("externalKey", desired.ExternalKey);
        await connection.ExecuteAsync(new CommandDefinition(sql, parameters, tx, cancellationToken: cancellationToken));
        var created = (await FindActiveAsync(connection, tx, desired.ExternalKey, cancellationToken))!;
        await InventoryChangeRecord.AppendAsync(connection, tx, audit, AuditActions.InstanceRegistered, created.Registration.Id,
            Target(created), null, Audited(created), now, cancellationToken);
    }

    async Task UpdateAsync(DbConnection connection, DbTransaction tx, InventoryRecord current, DesiredInstance desired,
        DateTimeOffset now, CancellationToken cancellationToken)
    {
        const string sql = """
            UPDATE instances
            SET name = @name, host = @host, port = @port, instance_name = @instanceName, environment = @environment,
                owner = @owner, tags = @tags, encrypt = @encrypt, trust_server_certificate = @trustServerCertificate,
                host_name_in_certificate = @hostNameInCertificate, server_certificate_path = @serverCertificatePath,
                credential_name = @credentialName,
                poll_interval_seconds = @pollIntervalSeconds,
                version = version + 1, updated_at = @now,
                -- How to reach it changed: poll it again right away.
                next_poll_at = CASE WHEN @repoll THEN NULL ELSE next_poll_at END
            WHERE id = @id;
            """;
        var parameters = new DynamicParameters(InstanceRow.Parameters(desired.Registration, now));
        parameters.Add("id", current.Registration.Id);
        parameters.Add("now", StoreTime.ToText(now));
        parameters.Add("repoll", InventoryFields.ReachChanged(current.Registration, desired.Registration));
        await connection.ExecuteAsync(new CommandDefinition(sql, parameters, tx, cancellationToken: cancellationToken));
        var updated = (await FindActiveAsync(connection, tx, desired.ExternalKey, cancellationToken))!;
        await InventoryChangeRecord.AppendAsync(connection, tx, audit, AuditActions.InstanceUpdated, updated.Registration.Id,
            Target(updated), Audited(current), Audited(updated), now, cancellationToken);
    }

    async Task RetireAsync(DbConnection connection, DbTransaction tx, InventoryRecord record, DateTimeOffset now,
        CancellationToken cancellationToken)
    {
        const string sql = """
            UPDATE instances
            SET retired_at = @now, lease_owner = NULL, lease_expires_at = NULL, version = version + 1, updated_at = @now
            WHERE id = @id AND retired_at IS NULL;
            """;
        await connection.ExecuteAsync(new CommandDefinition(sql,
            new { id = record.Registration.Id, now = StoreTime.ToText(now) }, tx, cancellationToken: cancellationToken));
        await InventoryChangeRecord.AppendAsync(connection, tx, audit, AuditActions.InstanceRetired, record.Registration.Id,
            Target(record), Audited(record), Audited(record) with { Registration = record.Registration with { RetiredAt = now } }, now,
            cancellationToken);
    }

    static string Target(InventoryRecord record) => InstanceRepository.Target(record.Registration.Id, record.Registration.Name);

    /// <summary>What an audit entry shows of a CMDB instance: its registration and key (no times or versions).</summary>
    static AuditedInstance Audited(InventoryRecord record) => new(record.Registration, record.ExternalKey);

    sealed record AuditedInstance(Shared.Inventory.InstanceRegistration Registration, string? ExternalKey);
}
