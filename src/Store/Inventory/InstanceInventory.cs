using System.Data;
using System.Data.Common;
using System.Globalization;
using Dapper;
using IfiDashboard.Store.Audit;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Store.Inventory;

/// <summary>
/// The inventory: every write of a registered instance, from the dashboard's form, the REST API (PUT, DELETE,
/// sync) and the demo's seeding, goes through here. One rule set (<see cref="InstanceRules"/>), one insert, one
/// update, one retire; the name and the server checked free (<see cref="InventoryFields.SameServer"/>) inside the
/// write transaction; the audit and change-journal entries in that transaction; and, once it commits,
/// <see cref="FleetChanges"/> announced, so the assessment and the live pages follow whichever path wrote.
/// </summary>
public sealed class InstanceInventory(IDbConnectionFactory connections, TimeProvider time, AuditLog audit, FleetChanges changes)
{
    public async Task<IReadOnlyList<InstanceRegistration>> ListActiveAsync(CancellationToken ct)
    {
        const string sql = $"""
            SELECT {InstanceRow.Columns}
            FROM instances
            WHERE retired_at IS NULL
            ORDER BY lower(name), id;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(sql, cancellationToken: ct));
        return rows.Select(r => r.ToRegistration()).ToList();
    }

    public async Task<InstanceRegistration?> GetAsync(long id, CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        return (await FindAsync(connection, null, "id = @id", new { id }, ct))?.Registration;
    }

    /// <summary>Registers a new instance (the form); it is due for a poll at once.</summary>
    public Task<InventoryWrite> RegisterAsync(InstanceRegistration registration, CancellationToken ct) =>
        WriteAsync(async (connection, tx, now) =>
        {
            if (await RefusalAsync(connection, tx, registration, exceptId: null, ct) is { } refused) return refused;
            return new InventoryWrite(InventoryWriteResult.Created, await InsertAsync(connection, tx, registration, null, now, ct));
        }, ct);

    /// <summary>Changes an active instance by id (the form); <see cref="InventoryWriteResult.NotFound"/> when none is active.</summary>
    public Task<InventoryWrite> UpdateAsync(InstanceRegistration registration, CancellationToken ct) =>
        WriteAsync(async (connection, tx, now) =>
        {
            if (await FindAsync(connection, tx, "id = @id AND retired_at IS NULL", new { id = registration.Id }, ct) is not { } current)
                return new InventoryWrite(InventoryWriteResult.NotFound, null);
            if (await RefusalAsync(connection, tx, registration, current.Registration.Id, ct) is { } refused) return refused;
            return await UpdateAsync(connection, tx, current, registration, now, ct);
        }, ct);

    /// <summary>Stops polling an active instance (the form); its row and history stay. False when none is active.</summary>
    public async Task<bool> RetireAsync(long id, CancellationToken ct) =>
        (await WriteAsync(async (connection, tx, now) =>
            await FindAsync(connection, tx, "id = @id AND retired_at IS NULL", new { id }, ct) is { } current
                ? new InventoryWrite(InventoryWriteResult.Retired, await RetireAsync(connection, tx, current, now, ct))
                : new InventoryWrite(InventoryWriteResult.NotFound, null), ct)).Result == InventoryWriteResult.Retired;

    /// <summary>
    /// The demo's seeding: registers the instance, or when an active one has the same name, brings how to reach it up
    /// to date. Environment, owner, tags and interval are kept on update: people may have edited them since the seed.
    /// </summary>
    public Task<InventoryWrite> SeedAsync(InstanceRegistration registration, CancellationToken ct) =>
        WriteAsync(async (connection, tx, now) =>
        {
            var current = await FindAsync(connection, tx, "lower(name) = lower(@name) AND retired_at IS NULL", new { name = registration.Name }, ct);
            var desired = current is null ? registration : registration with
            {
                Environment = current.Registration.Environment,
                Owner = current.Registration.Owner,
                Tags = current.Registration.Tags,
                PollIntervalSeconds = current.Registration.PollIntervalSeconds,
            };
            if (await RefusalAsync(connection, tx, desired, current?.Registration.Id, ct) is { } refused) return refused;
            if (current is null)
                return new InventoryWrite(InventoryWriteResult.Created, await InsertAsync(connection, tx, desired, null, now, ct));
            return await UpdateAsync(connection, tx, current, desired, now, ct);
        }, ct);

    /// <summary>A CMDB's PUT: creates or updates the active instance under the external key.</summary>
    /// <param name="precondition">Checked against the current active instance (null when none) inside the
    /// transaction, so a concurrent change cannot slip between the check and the write.</param>
    public Task<InventoryWrite> PutAsync(DesiredInstance desired, Func<InventoryRecord?, bool> precondition, CancellationToken ct) =>
        WriteAsync(async (connection, tx, now) =>
        {
            var current = await FindActiveByKeyAsync(connection, tx, desired.ExternalKey, ct);
            if (!precondition(current))
                return new InventoryWrite(InventoryWriteResult.PreconditionFailed, current);
            if (await RefusalAsync(connection, tx, desired.Registration, current?.Registration.Id, ct) is { } refused)
                return refused with { Record = current };
            if (current is null)
                return new InventoryWrite(InventoryWriteResult.Created,
                    await InsertAsync(connection, tx, desired.Registration, desired.ExternalKey, now, ct));
            return await UpdateAsync(connection, tx, current, desired.Registration, now, ct);
        }, ct);

    /// <summary>A CMDB's DELETE: retires the active instance with this key; <see cref="InventoryWriteResult.NotFound"/> when none.</summary>
    public Task<InventoryWrite> RetireAsync(string externalKey, CancellationToken ct) =>
        WriteAsync(async (connection, tx, now) =>
            await FindActiveByKeyAsync(connection, tx, externalKey, ct) is { } current
                ? new InventoryWrite(InventoryWriteResult.Retired, await RetireAsync(connection, tx, current, now, ct))
                : new InventoryWrite(InventoryWriteResult.NotFound, null), ct);

    /// <summary>
    /// Brings the CMDB-registered instances to <paramref name="desired"/>: creates, updates, and (when
    /// <paramref name="retireMissing"/>) retires CMDB instances it leaves out. All or nothing; a dry run, a broken
    /// rule or a conflict writes nothing.
    /// </summary>
    public async Task<SyncOutcome> SyncAsync(IReadOnlyList<DesiredInstance> desired, bool dryRun, bool retireMissing, CancellationToken ct)
    {
        var invalid = Invalid(desired);
        if (invalid.Count > 0)
            return SyncOutcome.Refused(invalid);

        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var plan = SyncPlan.Compute(await ListActiveRecordsAsync(connection, tx, ct), desired, retireMissing);
        if (dryRun || plan.Refusals.Count > 0)
            return plan.ToOutcome();
        await ApplyAsync(connection, tx, plan, ct);
        await tx.CommitAsync(ct);
        if (plan.Retires.Count + plan.Updates.Count + plan.Creates.Count > 0) changes.Publish();
        return plan.ToOutcome();
    }

    /// <summary>
    /// A partial sync: like <see cref="SyncAsync"/>, but the items it refuses (a broken rule, a name or server in use)
    /// are left out and the others written. The instance a refused item names stays as it is, never retired; when a
    /// refused item could not be matched to an instance at all (<paramref name="unmatchedRejects"/>: the API could not
    /// read its external key), nothing is retired, since it may have named any. One audit entry records the sync.
    /// </summary>
    /// <param name="keptKeys">External keys of items the API rejected before: their instances stay as they are.</param>
    /// <returns>The outcome; its refusals are indexes into <paramref name="desired"/>.</returns>
    public async Task<SyncOutcome> SyncPartiallyAsync(IReadOnlyList<DesiredInstance> desired, IReadOnlySet<string> keptKeys,
        bool unmatchedRejects, bool dryRun, bool retireMissing, PartialSyncAudit describe, CancellationToken ct)
    {
        var refused = Invalid(desired).ToList();
        var kept = new HashSet<string>(keptKeys, StringComparer.Ordinal);
        kept.UnionWith(refused.Select(r => desired[r.Index].ExternalKey));

        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var active = await ListActiveRecordsAsync(connection, tx, ct);
        // An item refused for its name or server leaves its own instance as it is, which may be in another's way in
        // turn: plan again without it until nothing is refused (each round leaves one item out at least).
        SyncPlan plan;
        while (true)
        {
            var remaining = Enumerable.Range(0, desired.Count).Where(i => !kept.Contains(desired[i].ExternalKey)).ToList();
            plan = SyncPlan.Compute(active, remaining.Select(i => desired[i]).ToList(), retireMissing && !unmatchedRejects, kept);
            if (plan.Refusals.Count == 0)
                break;
            foreach (var (index, refusal) in plan.Refusals)
            {
                refused.Add((remaining[index], refusal));
                kept.Add(desired[remaining[index]].ExternalKey);
            }
        }
        var outcome = plan.ToOutcome() with { Refusals = refused.OrderBy(r => r.Index).ToList() };
        if (dryRun)
            return outcome;
        await ApplyAsync(connection, tx, plan, ct);
        await audit.AppendAsync(connection, tx, AuditActions.InstancesSyncedPartially, "instances sync (partial)", null,
            describe(outcome), ct);
        await tx.CommitAsync(ct);
        if (plan.Retires.Count + plan.Updates.Count + plan.Creates.Count > 0) changes.Publish();
        return outcome;
    }

    /// <summary>What the audit entry of a partial sync records, from its outcome (the API names the rejected items).</summary>
    public delegate object PartialSyncAudit(SyncOutcome outcome);

    static List<(int Index, InventoryRefusal Refusal)> Invalid(IReadOnlyList<DesiredInstance> desired) => desired
        .Select((d, i) => (Index: i, Refusal: new InventoryRefusal(InventoryRefusalKind.Invalid, InstanceRules.Check(d.Registration))))
        .Where(x => x.Refusal.Errors.Count > 0).ToList();

    async Task ApplyAsync(DbConnection connection, DbTransaction tx, SyncPlan plan, CancellationToken ct)
    {
        var now = time.GetUtcNow();
        // Renames go through a placeholder first, so that two instances swapping names never collide mid-way on the
        // unique index of active names. Placeholders start with '#', which no valid name does.
        foreach (var (current, item) in plan.Updates)
        {
            if (!string.Equals(current.Registration.Name, item.Registration.Name, StringComparison.Ordinal))
                await connection.ExecuteAsync(new CommandDefinition("UPDATE instances SET name = @placeholder WHERE id = @id;",
                    new { placeholder = "#sync-" + current.Registration.Id, id = current.Registration.Id }, tx, cancellationToken: ct));
        }
        foreach (var record in plan.Retires)
            await RetireAsync(connection, tx, record, now, ct);
        foreach (var (current, item) in plan.Updates)
            await UpdateAsync(connection, tx, current, item.Registration, now, ct);
        foreach (var item in plan.Creates)
            await InsertAsync(connection, tx, item.Registration, item.ExternalKey, now, ct);
    }

    /// <summary>
    /// Registers many instances at once (a CSV import), all or nothing: each row is refused or registered in turn in one
    /// transaction, by the same rules as a single registration, so a later row meets the earlier rows as registered
    /// (two rows naming one server: the second is refused). Committed only when <paramref name="commit"/> is set and no
    /// row was refused; otherwise rolled back, which makes the same call the import's preview.
    /// </summary>
    /// <returns>Per row, in order: created, or refused with the row (0-based) of this import in the way, if it is one.</returns>
    public async Task<IReadOnlyList<(InventoryWrite Write, int? ConflictingRow)>> ImportAsync(IReadOnlyList<InstanceRegistration> registrations,
        bool commit, CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var now = time.GetUtcNow();
        var outcomes = new (InventoryWrite Write, int? ConflictingRow)[registrations.Count];
        // Read once and kept up to date with the rows accepted, each under a stand-in id (-1 - its row) until the
        // batched insert below draws the real ones: the write lock is held for one read, and a row of this import in
        // the way is named by its row.
        var holders = new InventoryFields.Holders(await ListActiveRecordsAsync(connection, tx, ct));
        var accepted = new List<int>();
        for (var row = 0; row < registrations.Count; row++)
        {
            if (Refusal(registrations[row], holders, null) is { } refused)
            {
                outcomes[row] = refused.Refusal?.Existing is { Id: < 0 } inFile
                    ? (refused with { Refusal = refused.Refusal with { Existing = null } }, (int)(-1 - inFile.Id))
                    : (refused, null);
                continue;
            }
            holders.Add(new InventoryRecord(registrations[row] with { Id = -1 - row }, null, now, now, 0));
            accepted.Add(row);
        }
        var created = await InsertManyAsync(connection, tx, accepted.Select(row => registrations[row]).ToList(), now, ct);
        for (var i = 0; i < accepted.Count; i++)
            outcomes[accepted[i]] = (new InventoryWrite(InventoryWriteResult.Created, created[i]), null);
        if (commit && accepted.Count == registrations.Count && accepted.Count > 0)
        {
            await tx.CommitAsync(ct);
            changes.Publish();
        }
        return outcomes;
    }

    /// <summary>One write transaction; committed and announced only when it changed something.</summary>
    async Task<InventoryWrite> WriteAsync(Func<DbConnection, DbTransaction, DateTimeOffset, Task<InventoryWrite>> write, CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var outcome = await write(connection, tx, time.GetUtcNow());
        if (!outcome.Changed)
            return outcome;
        await tx.CommitAsync(ct);
        changes.Publish();
        return outcome;
    }

    /// <summary>Why the registration may not be stored: a broken rule, a name in use, a server registered already.</summary>
    async Task<InventoryWrite?> RefusalAsync(DbConnection connection, DbTransaction tx, InstanceRegistration registration, long? exceptId,
        CancellationToken ct)
        => Refusal(registration, new InventoryFields.Holders(await PossibleHoldersAsync(connection, tx, registration, ct)), exceptId);

    /// <summary><see cref="RefusalAsync"/> against the active instances given.</summary>
    static InventoryWrite? Refusal(InstanceRegistration registration, InventoryFields.Holders active, long? exceptId)
    {
        if (InstanceRules.Check(registration) is { Count: > 0 } broken)
            return InventoryWrite.Refused(new InventoryRefusal(InventoryRefusalKind.Invalid, broken));
        if (active.OfName(registration.Name, exceptId) is { } named)
            return InventoryWrite.Refused(InventoryRefusal.NameTaken(registration.Name, named.Registration));
        if (active.OfServer(registration, exceptId) is { } same)
            return InventoryWrite.Refused(InventoryRefusal.ServerTaken(registration, same.Registration));
        return null;
    }

    async Task<InventoryRecord> InsertAsync(DbConnection connection, DbTransaction tx, InstanceRegistration registration, string? externalKey,
        DateTimeOffset now, CancellationToken ct)
    {
        var sql = $"""
            INSERT INTO instances ({InstanceRow.InsertColumns})
            VALUES {InstanceRow.InsertValues("")}
            RETURNING id;
            """;
        var parameters = InstanceRow.Parameters(registration, now);
        parameters.Add("externalKey", externalKey, DbType.String);
        var id = await connection.ExecuteScalarAsync<long>(new CommandDefinition(sql, parameters, tx, cancellationToken: ct));
        var created = (await FindAsync(connection, tx, "id = @id", new { id }, ct))!;
        await RecordAsync(connection, tx, AuditActions.InstanceRegistered, null, created, now, ct);
        return created;
    }

    /// <summary>
    /// Rows a statement of an import inserts, 15 parameters each. Small on SQLite: Microsoft.Data.Sqlite (and Dapper
    /// adding them) finds each parameter by name in a list, so a statement's cost grows with the square of its
    /// parameters; 500 rows a statement held the write lock for minutes at 20,000 rows, and 40 rows spent twice as long
    /// inserting 20,000 rows as 10 do (docs/testing.md, CsvImportTests). PostgreSQL finds parameters by a hash; there
    /// fewer round trips count more.
    /// </summary>
    int ImportBatchRows => connections.Dialect.IsPostgres ? 40 : 10;

    /// <summary>
    /// An import's registrations (no CMDB key), <see cref="ImportBatchRows"/> a statement, read back and recorded a
    /// batch at a time: the same rows, audit and journal entries as <see cref="InsertAsync"/> one by one, without four
    /// round trips a row.
    /// </summary>
    /// <returns>The created records, in the order given.</returns>
    async Task<IReadOnlyList<InventoryRecord>> InsertManyAsync(DbConnection connection, DbTransaction tx,
        IReadOnlyList<InstanceRegistration> registrations, DateTimeOffset now, CancellationToken ct)
    {
        var created = new List<InventoryRecord>(registrations.Count);
        foreach (var batch in registrations.Chunk(ImportBatchRows))
        {
            var parameters = new DynamicParameters();
            parameters.Add("now", now);
            for (var i = 0; i < batch.Length; i++)
            {
                InstanceRow.Add(parameters, batch[i], i.ToString(CultureInfo.InvariantCulture));
                parameters.Add("externalKey" + i.ToString(CultureInfo.InvariantCulture), null, DbType.String);
            }
            var values = string.Join(",\n", Enumerable.Range(0, batch.Length).Select(i => InstanceRow.InsertValues(i.ToString(CultureInfo.InvariantCulture))));
            var ids = (await connection.QueryAsync<long>(new CommandDefinition(
                $"INSERT INTO instances ({InstanceRow.InsertColumns})\nVALUES {values}\nRETURNING id;", parameters, tx, cancellationToken: ct))).ToList();
            // Read back as a single insert reads its row; matched by name (unique among active instances ignoring
            // case), since neither store promises RETURNING's order.
            // The batch's ids as a range (no list parameter: Dapper sends one to Npgsql as an array, which IN does not
            // take); under the write lock no other insert draws an id between them.
            var (first, last) = (ids.Min(), ids.Max());
            var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(
                $"SELECT {InstanceRow.InventoryColumns} FROM instances WHERE id BETWEEN @first AND @last;", new { first, last }, tx, cancellationToken: ct));
            var byName = rows.Select(r => r.ToInventoryRecord()).Where(r => ids.Contains(r.Registration.Id))
                .ToDictionary(r => r.Registration.Name, StringComparer.OrdinalIgnoreCase);
            var records = batch.Select(r => byName[r.Name]).ToList();
            await InventoryChangeRecord.AppendCreatedAsync(connection, tx, audit, records.Select(r =>
                (Target(r.Registration.Id, r.Registration.Name), (object?)Audited(r))).ToList(), first, last, now, ct);
            created.AddRange(records);
        }
        return created;
    }

    async Task<InventoryWrite> UpdateAsync(DbConnection connection, DbTransaction tx, InventoryRecord current, InstanceRegistration desired,
        DateTimeOffset now, CancellationToken ct)
    {
        const string sql = """
            UPDATE instances
            SET name = @name, host = @host, port = @port, instance_name = @instanceName, environment = @environment,
                owner = @owner, tags = @tags, encrypt = @encrypt, trust_server_certificate = @trustServerCertificate,
                host_name_in_certificate = @hostNameInCertificate, server_certificate_path = @serverCertificatePath,
                credential_name = @credentialName, poll_interval_seconds = @pollIntervalSeconds,
                version = version + 1, updated_at = @now,
                next_poll_at = CASE WHEN @reachChanged THEN NULL ELSE next_poll_at END
            WHERE id = @id;
            """;
        if (InventoryFields.Same(current.Registration, desired))
            return new InventoryWrite(InventoryWriteResult.Unchanged, current);
        var parameters = InstanceRow.Parameters(desired, now);
        parameters.Add("id", current.Registration.Id);
        // How the collector connects changed: the instance is due for a poll at once.
        parameters.Add("reachChanged", InventoryFields.ReachChanged(current.Registration, desired));
        await connection.ExecuteAsync(new CommandDefinition(sql, parameters, tx, cancellationToken: ct));
        var updated = (await FindAsync(connection, tx, "id = @id", new { id = current.Registration.Id }, ct))!;
        await RecordAsync(connection, tx, AuditActions.InstanceUpdated, current, updated, now, ct);
        return new InventoryWrite(InventoryWriteResult.Updated, updated);
    }

    async Task<InventoryRecord> RetireAsync(DbConnection connection, DbTransaction tx, InventoryRecord current, DateTimeOffset now,
        CancellationToken ct)
    {
        const string sql = """
            UPDATE instances
            SET retired_at = @now, lease_owner = NULL, lease_expires_at = NULL, version = version + 1, updated_at = @now
            WHERE id = @id AND retired_at IS NULL;
            """;
        await connection.ExecuteAsync(new CommandDefinition(sql,
            new { id = current.Registration.Id, now }, tx, cancellationToken: ct));
        var retired = (await FindAsync(connection, tx, "id = @id", new { id = current.Registration.Id }, ct))!;
        await RecordAsync(connection, tx, AuditActions.InstanceRetired, current, retired, now, ct);
        return retired;
    }

    /// <summary>The audit entry (who, before and after) and the changes feed's journal entry, in the write's transaction.</summary>
    async Task RecordAsync(DbConnection connection, DbTransaction tx, string action, InventoryRecord? before, InventoryRecord after,
        DateTimeOffset now, CancellationToken ct) =>
        await InventoryChangeRecord.AppendAsync(connection, tx, audit, action, after.Registration.Id,
            Target(after.Registration.Id, (before ?? after).Registration.Name), Audited(before), Audited(after), now, ct);

    /// <summary>How the audit log names an instance.</summary>
    internal static string Target(long id, string name) => $"instance {id} ({name})";

    /// <summary>What an audit entry shows of an instance: its registration and the CMDB's key (no times or versions).</summary>
    static AuditedInstance? Audited(InventoryRecord? record) => record is null ? null : new(record.Registration, record.ExternalKey);

    sealed record AuditedInstance(InstanceRegistration Registration, string? ExternalKey);

    const string ActiveRecords = $"""
        SELECT {InstanceRow.InventoryColumns},
            -- What the server said it is, as the assessment reads it: any poll that read its identity.
            (SELECT s.server_name FROM instance_state s WHERE s.instance_id = instances.id) AS PolledServerName
        FROM instances
        WHERE retired_at IS NULL
        """;

    static async Task<IReadOnlyList<InventoryRecord>> ListActiveRecordsAsync(DbConnection connection, DbTransaction tx, CancellationToken ct)
    {
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(ActiveRecords + " ORDER BY id;", transaction: tx,
            cancellationToken: ct));
        return rows.Select(r => r.ToInventoryRecord()).ToList();
    }

    /// <summary>
    /// The active instances that could hold <paramref name="registration"/>'s name or server: every one that does, and a
    /// few that only look alike, for <see cref="InventoryFields.Holders"/> to decide exactly. A single write reads these
    /// few rows, not the whole inventory (at 10,000 instances that read took 0.1 s, under the write lock).
    /// </summary>
    /// <remarks>
    /// A key <see cref="InventoryFields.SameServer"/> compares is a host part and an endpoint. The registration's host
    /// parts are its host and the machine name a DNS name starts with; an active instance's are its host, its machine
    /// name and the machine its server reported (<c>MACHINE</c> or <c>MACHINE\INSTANCE</c>). Its endpoints are its own
    /// port or instance name, and the instance name its server reported. Two keys are equal only when both parts are, so
    /// the rows below are every instance with a host part and an endpoint of the registration's. Two machine names alike
    /// meet only in one DNS domain, where the hosts are equal too. Names, hosts and instance names are ASCII by
    /// <see cref="InstanceRules"/>, so <c>lower()</c> compares them as C# does, on both stores.
    /// </remarks>
    static async Task<IReadOnlyList<InventoryRecord>> PossibleHoldersAsync(DbConnection connection, DbTransaction tx,
        InstanceRegistration registration, CancellationToken ct)
    {
        const string sql = ActiveRecords + """

              AND (lower(name) = lower(@name)
                OR ((replace(replace(lower(host), '[', ''), ']', '') IN (@host, @machine)
                        OR substr(lower(host), 1, length(@host) + 1) = @host || '.'
                        OR EXISTS (SELECT 1 FROM instance_state s WHERE s.instance_id = instances.id
                            AND (lower(s.server_name) IN (@host, @machine)
                                OR substr(lower(s.server_name), 1, length(@host) + 1) = @host || '\'
                                OR substr(lower(s.server_name), 1, length(@machine) + 1) = @machine || '\')))
                    AND CASE WHEN @instance IS NULL THEN coalesce(instance_name, '') = '' AND coalesce(port, @defaultPort) = @port
                        ELSE lower(instance_name) = @instance
                            OR EXISTS (SELECT 1 FROM instance_state s WHERE s.instance_id = instances.id
                                AND length(s.server_name) > length(@instance)
                                AND lower(substr(s.server_name, length(s.server_name) - length(@instance))) = '\' || @instance)
                        END))
            ORDER BY id;
            """;
        var key = InventoryFields.KeyParts(registration);
        var rows = await connection.QueryAsync<InstanceRow>(new CommandDefinition(sql,
            new { name = registration.Name, host = key.Host, machine = key.Machine, instance = key.Instance, port = key.Port, defaultPort = InventoryFields.DefaultPort },
            tx, cancellationToken: ct));
        return rows.Select(r => r.ToInventoryRecord()).ToList();
    }

    static Task<InventoryRecord?> FindActiveByKeyAsync(DbConnection connection, DbTransaction tx, string externalKey, CancellationToken ct) =>
        FindAsync(connection, tx, "external_key = @externalKey AND retired_at IS NULL", new { externalKey }, ct);

    static async Task<InventoryRecord?> FindAsync(DbConnection connection, DbTransaction? tx, string where, object parameters,
        CancellationToken ct)
    {
        var sql = $"""
            SELECT {InstanceRow.InventoryColumns}
            FROM instances
            WHERE {where};
            """;
        var row = await connection.QuerySingleOrDefaultAsync<InstanceRow>(new CommandDefinition(sql, parameters, tx, cancellationToken: ct));
        return row?.ToInventoryRecord();
    }
}
