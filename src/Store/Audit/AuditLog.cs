using System.Data.Common;
using System.Text.Json;
using System.Text.Json.Serialization;
using Dapper;

namespace IfiDashboard.Store.Audit;

/// <summary>
/// The append-only audit log (<c>audit_log</c>): who changed what, when, from where, before and after. A change that
/// is a store write records its entry with <see cref="AppendAsync"/> inside its own write transaction, so the change
/// and its entry commit together or not at all. No method updates an entry, and only retention deletes them, older
/// than <c>Retention:AuditDays</c> and with an entry saying so (<see cref="PruneBatchAsync"/>; the store refuses
/// anything else: migrations 0008 and 0021). The actor is the request's (<see cref="AuditActors"/>) unless given.
/// Before and after are JSON of what the caller passes: never a key, a hash or a password. Refusals, which anyone
/// can cause, are counted instead of appended (<see cref="CountRefusalAsync"/>).
/// </summary>
public sealed class AuditLog(IDbConnectionFactory connections, TimeProvider time, IAuditActors actors)
{
    static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        Converters = { new JsonStringEnumConverter() },
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    /// <summary>The most one page or API call returns.</summary>
    public const int MaxPageSize = 500;

    /// <summary>Records an entry inside the caller's write transaction.</summary>
    public Task AppendAsync(DbConnection connection, DbTransaction tx, string action, string? target, object? before,
        object? after, CancellationToken ct, AuditActor? actor = null)
    {
        const string sql = """
            INSERT INTO audit_log (occurred_at, actor, actor_identity, remote_address, action, target, before_json, after_json)
            VALUES (@occurredAt, @actor, @actorIdentity, @remoteAddress, @action, @target, @before, @after);
            """;
        var who = actor ?? actors.Current();
        return connection.ExecuteAsync(new CommandDefinition(sql, new
        {
            occurredAt = time.GetUtcNow(),
            actor = who.Name,
            actorIdentity = who.Identity,
            remoteAddress = who.RemoteAddress,
            action,
            target,
            before = ToJson(before),
            after = ToJson(after),
        }, tx, cancellationToken: ct));
    }

    /// <summary>
    /// Records many entries of one action inside the caller's write transaction, one statement for all (an import of
    /// thousands of instances): the same rows <see cref="AppendAsync"/> writes one by one, in the order given.
    /// </summary>
    public async Task AppendManyAsync(DbConnection connection, DbTransaction tx, string action,
        IReadOnlyList<(string? Target, object? Before, object? After)> entries, CancellationToken ct)
    {
        if (entries.Count == 0) return;
        var who = actors.Current();
        var parameters = new DynamicParameters(new { occurredAt = time.GetUtcNow(), actor = who.Name, actorIdentity = who.Identity,
            remoteAddress = who.RemoteAddress, action });
        var values = new System.Text.StringBuilder();
        for (var i = 0; i < entries.Count; i++)
        {
            var n = i.ToString(System.Globalization.CultureInfo.InvariantCulture);
            parameters.Add("target" + n, entries[i].Target, System.Data.DbType.String);
            parameters.Add("before" + n, ToJson(entries[i].Before), System.Data.DbType.String);
            parameters.Add("after" + n, ToJson(entries[i].After), System.Data.DbType.String);
            values.Append(i == 0 ? "" : ",\n")
                .Append($"(@occurredAt, @actor, @actorIdentity, @remoteAddress, @action, @target{n}, @before{n}, @after{n})");
        }
        await connection.ExecuteAsync(new CommandDefinition($"""
            INSERT INTO audit_log (occurred_at, actor, actor_identity, remote_address, action, target, before_json, after_json)
            VALUES {values};
            """, parameters, tx, cancellationToken: ct));
    }

    /// <summary>Records an entry in a write transaction of its own: for what is not itself a store write (a test
    /// email, a refused request).</summary>
    public async Task RecordAsync(string action, string? target, object? before, object? after, CancellationToken ct,
        AuditActor? actor = null)
    {
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        await AppendAsync(connection, tx, action, target, before, after, ct, actor);
        await tx.CommitAsync(ct);
    }

    /// <summary>A sign-in to the dashboard, with the roles it was given. A refused one is counted
    /// (<see cref="CountRefusalAsync"/>): anyone can send a forged answer to the callback.</summary>
    public Task RecordSignInAsync(AuditActor actor, IReadOnlyList<string> roles, CancellationToken ct) =>
        RecordAsync(AuditActions.SignIn, actor.Name, null, new { roles }, ct, actor);

    /// <summary>The window refusals are counted in: one row per window, kind, source and reason.</summary>
    public static readonly TimeSpan RefusalWindow = TimeSpan.FromHours(1);

    /// <summary>
    /// The most rows of refusal counts one window holds for named sources; past it each kind of refusal counts into
    /// one row of <see cref="OtherSources"/>. So a flood from any number of addresses adds at most this many rows plus
    /// one per kind of refusal (<see cref="AuditActions.Refusals"/>) an hour (docs/security.md#audit-log).
    /// </summary>
    public const int MaxRefusalSourcesPerWindow = 100;

    public const string OtherSources = "(other sources)";

    /// <summary>Longest actor or reason text a count keeps.</summary>
    const int MaxRefusalText = 200;

    /// <summary>
    /// Counts a refused request in its window's row for the kind (<paramref name="action"/>, one of
    /// <see cref="AuditActions.Refusals"/>), source (actor and address) and reason. Refusals are counted rather than
    /// appended, since anyone who reaches the server can cause them: one row per source and reason an hour, at most
    /// <see cref="MaxRefusalSourcesPerWindow"/> plus one per kind.
    /// </summary>
    public async Task CountRefusalAsync(string action, AuditActor actor, string reason, CancellationToken ct)
    {
        const string increment = """
            UPDATE refusal_counts SET refusals = refusals + 1, last_at = @Now
            WHERE window_start = @WindowStart AND action = @Action AND actor = @Actor AND remote_address = @RemoteAddress
              AND reason = @Reason;
            """;
        const string rowsInWindow = "SELECT COUNT(*) FROM refusal_counts WHERE window_start = @WindowStart;";
        const string insert = """
            INSERT INTO refusal_counts (window_start, action, actor, remote_address, reason, refusals, first_at, last_at)
            VALUES (@WindowStart, @Action, @Actor, @RemoteAddress, @Reason, 1, @Now, @Now)
            ON CONFLICT (window_start, action, actor, remote_address, reason)
            DO UPDATE SET refusals = refusal_counts.refusals + 1, last_at = excluded.last_at;
            """;
        if (!AuditActions.Refusals.Contains(action))
            throw new ArgumentException($"{action} is not a kind of refusal.", nameof(action));
        var now = time.GetUtcNow();
        var windowStart = new DateTimeOffset(now.UtcTicks - now.UtcTicks % RefusalWindow.Ticks, TimeSpan.Zero);
        var count = new RefusalKey(windowStart, action, Clip(actor.Name), actor.RemoteAddress ?? "", Clip(reason), now);
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        if (await connection.ExecuteAsync(new CommandDefinition(increment, count, tx, cancellationToken: ct)) == 0)
        {
            var rows = await connection.ExecuteScalarAsync<long>(new CommandDefinition(rowsInWindow, count, tx, cancellationToken: ct));
            if (rows >= MaxRefusalSourcesPerWindow)
                count = count with { Actor = OtherSources, RemoteAddress = "", Reason = OtherSources };
            await connection.ExecuteAsync(new CommandDefinition(insert, count, tx, cancellationToken: ct));
        }
        await tx.CommitAsync(ct);

        static string Clip(string text) => text.Length <= MaxRefusalText ? text : text[..MaxRefusalText];
    }

    sealed record RefusalKey(DateTimeOffset WindowStart, string Action, string Actor, string RemoteAddress, string Reason, DateTimeOffset Now);

    /// <summary>Refusal counts of the windows that started in [<paramref name="from"/>, <paramref name="to"/>), oldest
    /// first, most refusals first within a window.</summary>
    public async Task<IReadOnlyList<RefusalCount>> RefusalCountsAsync(DateTimeOffset from, DateTimeOffset to, CancellationToken ct)
    {
        const string sql = """
            SELECT window_start AS WindowStart, action AS Action, actor AS Actor, remote_address AS RemoteAddress,
                reason AS Reason, refusals AS Refusals, first_at AS FirstAt, last_at AS LastAt
            FROM refusal_counts
            WHERE window_start >= @from AND window_start < @to
            ORDER BY window_start, refusals DESC, id;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<RefusalCountRow>(new CommandDefinition(sql, new { from, to }, cancellationToken: ct));
        return rows.Select(r => new RefusalCount(r.WindowStart, r.Action, r.Actor, r.RemoteAddress is { Length: > 0 } a ? a : null,
            r.Reason, r.Refusals, r.FirstAt, r.LastAt)).ToList();
    }

    sealed class RefusalCountRow
    {
        public DateTimeOffset WindowStart { get; init; }
        public string Action { get; init; } = "";
        public string Actor { get; init; } = "";
        public string RemoteAddress { get; init; } = "";
        public string Reason { get; init; } = "";
        public long Refusals { get; init; }
        public DateTimeOffset FirstAt { get; init; }
        public DateTimeOffset LastAt { get; init; }
    }

    /// <summary>
    /// Deletes one batch of entries, and of refusal counts, older than <paramref name="cutoff"/>, with an
    /// <c>audit.pruned</c> entry saying how many went, in one transaction: pruning is never silent. The store lets
    /// only this delete entries (migration 0021: the cut-off it writes, inside the transaction, is what the
    /// append-only trigger lets through).
    /// </summary>
    /// <returns>How many entries and counts were deleted; fewer than <paramref name="batchSize"/> of both means none
    /// older are left.</returns>
    public async Task<(int Entries, int RefusalCounts)> PruneBatchAsync(DateTimeOffset cutoff, int batchSize, CancellationToken ct)
    {
        const string entries = """
            DELETE FROM audit_log
            WHERE id IN (SELECT id FROM audit_log WHERE occurred_at < @cutoff ORDER BY id LIMIT @batchSize);
            """;
        const string counts = """
            DELETE FROM refusal_counts
            WHERE id IN (SELECT id FROM refusal_counts WHERE window_start < @cutoff ORDER BY id LIMIT @batchSize);
            """;
        var parameters = new { cutoff, batchSize = (long)batchSize };
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        await connection.ExecuteAsync(new CommandDefinition("INSERT INTO audit_log_pruning (cutoff) VALUES (@cutoff);", parameters, tx, cancellationToken: ct));
        var deleted = await connection.ExecuteAsync(new CommandDefinition(entries, parameters, tx, cancellationToken: ct));
        await connection.ExecuteAsync(new CommandDefinition("DELETE FROM audit_log_pruning;", transaction: tx, cancellationToken: ct));
        var deletedCounts = await connection.ExecuteAsync(new CommandDefinition(counts, parameters, tx, cancellationToken: ct));
        if (deleted + deletedCounts > 0)
            await AppendAsync(connection, tx, AuditActions.AuditPruned, "audit log", null,
                new { entries = deleted, refusalCounts = deletedCounts, olderThan = cutoff }, ct, AuditActor.System);
        await tx.CommitAsync(ct);
        return (deleted, deletedCounts);
    }

    /// <summary>
    /// Entries newest first that match the filter, at most <paramref name="limit"/>, older than
    /// <paramref name="beforeId"/> when given (the next page starts below the last id of this one).
    /// </summary>
    public Task<IReadOnlyList<AuditRecord>> QueryAsync(AuditFilter filter, long? beforeId, int limit, CancellationToken ct) =>
        ReadAsync(filter, beforeId, Math.Clamp(limit, 1, MaxPageSize), ct);

    /// <summary>
    /// One page of at most <paramref name="pageSize"/> entries newest first, and the id to pass as
    /// <paramref name="beforeId"/> for the next when older entries follow. One entry more than the page is read to tell,
    /// also at <see cref="MaxPageSize"/> (before session 12 that one was capped away, so paging by 500 never went on).
    /// </summary>
    public async Task<AuditPage> PageAsync(AuditFilter filter, long? beforeId, int pageSize, CancellationToken ct)
    {
        var size = Math.Clamp(pageSize, 1, MaxPageSize);
        var records = await ReadAsync(filter, beforeId, size + 1, ct);
        return records.Count > size ? new AuditPage(records.Take(size).ToList(), records[size - 1].Id) : new AuditPage(records, null);
    }

    async Task<IReadOnlyList<AuditRecord>> ReadAsync(AuditFilter filter, long? beforeId, int limit, CancellationToken ct)
    {
        const string sql = """
            SELECT id AS Id, occurred_at AS OccurredAt, actor AS Actor, actor_identity AS ActorIdentity, remote_address AS RemoteAddress,
                action AS Action, target AS Target, before_json AS Before, after_json AS After
            FROM audit_log
            WHERE (@actor IS NULL OR actor = @actor)
              AND (@action IS NULL OR action = @action)
              AND (@from IS NULL OR occurred_at >= @from)
              AND (@to IS NULL OR occurred_at < @to)
              AND (@beforeId IS NULL OR id < @beforeId)
            ORDER BY id DESC
            LIMIT @limit;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<AuditRow>(new CommandDefinition(sql, new
        {
            actor = filter.Actor,
            action = filter.Action,
            from = filter.From,
            to = filter.To,
            beforeId,
            limit,
        }, cancellationToken: ct));
        return rows.Select(r => r.ToRecord()).ToList();
    }

    /// <summary>The actions and actors recorded so far, for the page's filter choices.</summary>
    public async Task<(IReadOnlyList<string> Actions, IReadOnlyList<string> Actors)> DistinctValuesAsync(CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        var actions = await connection.QueryAsync<string>(new CommandDefinition(
            "SELECT DISTINCT action FROM audit_log ORDER BY action;", cancellationToken: ct));
        var names = await connection.QueryAsync<string>(new CommandDefinition(
            "SELECT DISTINCT actor FROM audit_log ORDER BY actor;", cancellationToken: ct));
        return (actions.ToList(), names.ToList());
    }

    static string? ToJson(object? value) => value is null ? null : JsonSerializer.Serialize(value, value.GetType(), Json);

    sealed class AuditRow
    {
        public long Id { get; init; }
        public DateTimeOffset OccurredAt { get; init; }
        public string Actor { get; init; } = "";
        public string? ActorIdentity { get; init; }
        public string? RemoteAddress { get; init; }
        public string Action { get; init; } = "";
        public string? Target { get; init; }
        public string? Before { get; init; }
        public string? After { get; init; }

        public AuditRecord ToRecord() =>
            new(Id, OccurredAt, Actor, RemoteAddress, Action, Target, Before, After) { ActorIdentity = ActorIdentity };
    }
}

/// <summary>One audit entry as stored: before and after are JSON text.</summary>
public sealed record AuditRecord(long Id, DateTimeOffset OccurredAt, string Actor, string? RemoteAddress, string Action,
    string? Target, string? Before, string? After)
{
    /// <summary>The actor's identity (<c>subject@issuer</c>); null for the system, anonymous requests and entries
    /// written before identities were recorded (migration 0020).</summary>
    public string? ActorIdentity { get; init; }
}

/// <summary>How many refusals of one kind, source and reason a window saw; <see cref="RemoteAddress"/> null when none.</summary>
public sealed record RefusalCount(DateTimeOffset WindowStart, string Action, string Actor, string? RemoteAddress, string Reason,
    long Refusals, DateTimeOffset FirstAt, DateTimeOffset LastAt);

/// <summary>A page of entries newest first; <see cref="NextBefore"/> is set when older entries follow.</summary>
public sealed record AuditPage(IReadOnlyList<AuditRecord> Entries, long? NextBefore);

/// <summary>What to list: exact actor and action, and a half-open time range [From, To).</summary>
public sealed record AuditFilter(string? Actor = null, string? Action = null, DateTimeOffset? From = null, DateTimeOffset? To = null);
