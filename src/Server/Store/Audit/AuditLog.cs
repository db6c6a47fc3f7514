using System.Data.Common;
using System.Text.Json;
using System.Text.Json.Serialization;
using Dapper;

namespace IfiDashboard.Server.Store.Audit;

/// <summary>
/// The append-only audit log (<c>audit_log</c>): who changed what, when, from where, before and after. A change that
/// is a store write records its entry with <see cref="AppendAsync"/> inside its own write transaction, so the change
/// and its entry commit together or not at all. There is deliberately no method that updates or deletes an entry
/// (and the store refuses both: see migration 0009). The actor is the request's (<see cref="AuditActors"/>) unless
/// given. Before and after are JSON of what the caller passes: never a key, a hash or a password.
/// </summary>
public sealed class AuditLog(IDbConnectionFactory connections, TimeProvider time, AuditActors actors)
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
            INSERT INTO audit_log (occurred_at, actor, remote_address, action, target, before_json, after_json)
            VALUES (@occurredAt, @actor, @remoteAddress, @action, @target, @before, @after);
            """;
        var who = actor ?? actors.Current();
        return connection.ExecuteAsync(new CommandDefinition(sql, new
        {
            occurredAt = time.GetUtcNow(),
            actor = who.Name,
            remoteAddress = who.RemoteAddress,
            action,
            target,
            before = ToJson(before),
            after = ToJson(after),
        }, tx, cancellationToken: ct));
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

    /// <summary>A sign-in to the dashboard, successful or not, with the roles it was given.</summary>
    public Task RecordSignInAsync(AuditActor actor, bool succeeded, IReadOnlyList<string> roles, string? failure,
        CancellationToken ct) =>
        RecordAsync(succeeded ? AuditActions.SignIn : AuditActions.SignInFailed, actor.Name, null,
            new { roles, failure }, ct, actor);

    /// <summary>
    /// Entries newest first that match the filter, at most <paramref name="limit"/>, older than
    /// <paramref name="beforeId"/> when given (the next page starts below the last id of this one).
    /// </summary>
    public async Task<IReadOnlyList<AuditRecord>> QueryAsync(AuditFilter filter, long? beforeId, int limit, CancellationToken ct)
    {
        const string sql = """
            SELECT id AS Id, occurred_at AS OccurredAt, actor AS Actor, remote_address AS RemoteAddress,
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
            limit = Math.Clamp(limit, 1, MaxPageSize),
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
        public string? RemoteAddress { get; init; }
        public string Action { get; init; } = "";
        public string? Target { get; init; }
        public string? Before { get; init; }
        public string? After { get; init; }

        public AuditRecord ToRecord() =>
            new(Id, OccurredAt, Actor, RemoteAddress, Action, Target, Before, After);
    }
}

/// <summary>One audit entry as stored: before and after are JSON text.</summary>
public sealed record AuditRecord(long Id, DateTimeOffset OccurredAt, string Actor, string? RemoteAddress, string Action,
    string? Target, string? Before, string? After);

/// <summary>What to list: exact actor and action, and a half-open time range [From, To).</summary>
public sealed record AuditFilter(string? Actor = null, string? Action = null, DateTimeOffset? From = null, DateTimeOffset? To = null);
