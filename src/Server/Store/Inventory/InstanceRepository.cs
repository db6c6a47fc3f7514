using System.Data.Common;
using Dapper;
using IfiDashboard.Server.Store.Audit;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Store.Inventory;

/// <summary>
/// Registered instances: add, idempotent upsert (demo seeding), read, retire. Every change is audited in its own
/// transaction, with the registration before and after. Adding or changing an instance so that it reaches a server
/// another active instance reaches throws <see cref="DuplicateServerException"/>.
/// </summary>
public sealed class InstanceRepository(IDbConnectionFactory connections, TimeProvider timeProvider, AuditLog audit)
{

    public async Task<long> AddAsync(InstanceRegistration registration, CancellationToken cancellationToken)
    {
        const string sql = """
            INSERT INTO instances (name, host, port, instance_name, environment, owner, tags, encrypt,
                trust_server_certificate, host_name_in_certificate, server_certificate_path, credential_name, poll_interval_seconds, created_at)
            VALUES (@name, @host, @port, @instanceName, @environment, @owner, @tags, @encrypt,
                @trustServerCertificate, @hostNameInCertificate, @serverCertificatePath, @credentialName, @pollIntervalSeconds, @createdAt)
            RETURNING id;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var now = timeProvider.GetUtcNow();
        long id;
        try
        {
            id = await connection.ExecuteScalarAsync<long>(new CommandDefinition(
                sql, InstanceRow.Parameters(registration, now), tx, cancellationToken: cancellationToken));
        }
        catch (DbException ex) when (ex.IsUniqueViolation())
        {
            throw new DuplicateInstanceException(registration.Name, ex);
        }
        // After the name, as the CMDB's writes check them; a refusal leaves the transaction uncommitted.
        await SameServerCheck.EnsureFreeAsync(connection, tx, registration, exceptId: id, cancellationToken);
        await InventoryChangeRecord.AppendAsync(connection, tx, audit, AuditActions.InstanceRegistered, id, Target(id, registration.Name),
            null, await GetAsync(connection, tx, id, cancellationToken), now, cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return id;
    }

    /// <summary>
    /// Registers the instance, or when an active one has the same name, updates how to reach it. Environment, owner,
    /// tags and interval are left alone on update: people may have edited them since the seed.
    /// </summary>
    public async Task<long> UpsertByNameAsync(InstanceRegistration registration, CancellationToken cancellationToken)
    {
        var sql = $"""
            INSERT INTO instances (name, host, port, instance_name, environment, owner, tags, encrypt,
                trust_server_certificate, host_name_in_certificate, server_certificate_path, credential_name, poll_interval_seconds, created_at)
            VALUES (@name, @host, @port, @instanceName, @environment, @owner, @tags, @encrypt,
                @trustServerCertificate, @hostNameInCertificate, @serverCertificatePath, @credentialName, @pollIntervalSeconds, @createdAt)
            ON CONFLICT {connections.Dialect.ActiveNameConflictTarget} DO UPDATE SET
                host = excluded.host,
                port = excluded.port,
                instance_name = excluded.instance_name,
                encrypt = excluded.encrypt,
                trust_server_certificate = excluded.trust_server_certificate,
                host_name_in_certificate = excluded.host_name_in_certificate,
                server_certificate_path = excluded.server_certificate_path,
                credential_name = excluded.credential_name,
                version = instances.version + 1,
                updated_at = excluded.created_at,
                -- How to reach it may have changed: poll it again right away.
                next_poll_at = NULL
            RETURNING id;
            """;
        const string activeByNameSql = $"""
            SELECT {InstanceRow.Columns}
            FROM instances
            WHERE lower(name) = lower(@name) AND retired_at IS NULL;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var before = (await connection.QuerySingleOrDefaultAsync<InstanceRow>(new CommandDefinition(
            activeByNameSql, new { name = registration.Name }, tx, cancellationToken: cancellationToken)))?.ToRegistration();
        var now = timeProvider.GetUtcNow();
        var id = await connection.ExecuteScalarAsync<long>(new CommandDefinition(
            sql, InstanceRow.Parameters(registration, now), tx, cancellationToken: cancellationToken));
        var after = await GetAsync(connection, tx, id, cancellationToken);
        // Seeding again at every start changes nothing most times: only a real change is worth an entry.
        if (before is null || after is null || !InventoryFields.Same(before, after))
            await InventoryChangeRecord.AppendAsync(connection, tx, audit, before is null ? AuditActions.InstanceRegistered : AuditActions.InstanceUpdated,
                id, Target(id, registration.Name), before, after, now, cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return id;
    }

    public async Task<InstanceRegistration?> GetAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = await connections.OpenAsync(cancellationToken);
        return await GetAsync(connection, null, id, cancellationToken);
    }

    static async Task<InstanceRegistration?> GetAsync(DbConnection connection, DbTransaction? tx, long id, CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {InstanceRow.Columns}
            FROM instances
            WHERE id = @id;
            """;
        var row = await connection.QuerySingleOrDefaultAsync<InstanceRow>(
            new CommandDefinition(sql, new { id }, tx, cancellationToken: cancellationToken));
        return row?.ToRegistration();
    }

    /// <summary>How the audit log names an instance.</summary>
    internal static string Target(long id, string name) => $"instance {id} ({name})";

    public async Task<IReadOnlyList<InstanceRegistration>> ListActiveAsync(CancellationToken cancellationToken)
    {
        const string sql = $"""
            SELECT {InstanceRow.Columns}
            FROM instances
            WHERE retired_at IS NULL
            ORDER BY lower(name), id;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(sql, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToRegistration()).ToList();
    }

    /// <summary>Stops polling the instance; its row and history stay. Retiring twice keeps the first time.</summary>
    public async Task RetireAsync(long id, DateTimeOffset at, CancellationToken cancellationToken)
    {
        const string sql = """
            UPDATE instances
            SET retired_at = @retiredAt, lease_owner = NULL, lease_expires_at = NULL,
                version = version + 1, updated_at = @retiredAt
            WHERE id = @id AND retired_at IS NULL;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var before = await GetAsync(connection, tx, id, cancellationToken);
        if (await connection.ExecuteAsync(new CommandDefinition(
                sql, new { id, retiredAt = StoreTime.ToText(at) }, tx, cancellationToken: cancellationToken)) == 0)
            return;
        await InventoryChangeRecord.AppendAsync(connection, tx, audit, AuditActions.InstanceRetired, id, Target(id, before!.Name), before,
            await GetAsync(connection, tx, id, cancellationToken), at, cancellationToken);
        await tx.CommitAsync(cancellationToken);
    }

    /// <summary>
    /// Changes an active instance's registration (the dashboard's inventory page). A change of how to reach it
    /// (<see cref="InventoryFields.ReachChanged"/>, the rule the CMDB's writes follow too) schedules a poll right away.
    /// Throws <see cref="DuplicateInstanceException"/> when the new name is taken.
    /// </summary>
    /// <returns>False when no active instance has that id.</returns>
    public async Task<bool> UpdateAsync(InstanceRegistration registration, CancellationToken cancellationToken)
    {
        const string current = $"""
            SELECT {InstanceRow.Columns}
            FROM instances
            WHERE id = @id AND retired_at IS NULL;
            """;
        const string sql = """
            UPDATE instances
            SET name = @name, host = @host, port = @port, instance_name = @instanceName, environment = @environment,
                owner = @owner, tags = @tags, encrypt = @encrypt, trust_server_certificate = @trustServerCertificate,
                host_name_in_certificate = @hostNameInCertificate, server_certificate_path = @serverCertificatePath,
                credential_name = @credentialName, poll_interval_seconds = @pollIntervalSeconds,
                next_poll_at = CASE WHEN @repoll THEN NULL ELSE next_poll_at END,
                version = version + 1, updated_at = @createdAt
            WHERE id = @id AND retired_at IS NULL;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var stored = await connection.QuerySingleOrDefaultAsync<InstanceRow>(
            new CommandDefinition(current, new { id = registration.Id }, tx, cancellationToken: cancellationToken));
        if (stored is null)
            return false;
        var now = timeProvider.GetUtcNow();
        var parameters = new DynamicParameters(InstanceRow.Parameters(registration, now));
        parameters.Add("id", registration.Id);
        parameters.Add("repoll", InventoryFields.ReachChanged(stored.ToRegistration(), registration));
        try
        {
            await connection.ExecuteAsync(new CommandDefinition(sql, parameters, tx, cancellationToken: cancellationToken));
        }
        catch (DbException ex) when (ex.IsUniqueViolation())
        {
            throw new DuplicateInstanceException(registration.Name, ex);
        }
        await SameServerCheck.EnsureFreeAsync(connection, tx, registration, registration.Id, cancellationToken);
        await InventoryChangeRecord.AppendAsync(connection, tx, audit, AuditActions.InstanceUpdated, registration.Id,
            Target(registration.Id, registration.Name), stored.ToRegistration(), await GetAsync(connection, tx, registration.Id, cancellationToken),
            now, cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return true;
    }
}
