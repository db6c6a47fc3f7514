using System.Data.Common;
using Dapper;
using IfiDashboard.Store.Audit;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Store.Collectors;

/// <summary>Section "Assignments": rules from configuration, applied before the saved ones and not editable in the dashboard.</summary>
public sealed class AssignmentOptions
{
    public const string Section = "Assignments";

    public List<AssignmentRuleSetting> Rules { get; set; } = [];

    public IReadOnlyList<CollectorAssignment> ToAssignments() =>
        [.. Rules.Select(r => new CollectorAssignment(AssignmentRuleSetting.MatchOf(r.Match)!.Value, r.Values, r.Collectors))];
}

/// <summary>One rule as configuration binds it: <c>Assignments:Rules:0:Match=Environment</c>, <c>...:Values:0=Production</c>, <c>...:Collectors:0=paris-a</c>.</summary>
public sealed class AssignmentRuleSetting
{
    /// <summary>
    /// Text, read by <see cref="MatchOf"/>: the configuration binder leaves an enum property at its default when the
    /// value names no member, so a misspelt match would have assigned by environment instead of stopping the start.
    /// </summary>
    public string? Match { get; set; }

    /// <summary>The rule's kind of match, or null when the text names none (a name, ignoring case; not a number).</summary>
    public static AssignmentMatch? MatchOf(string? text) =>
        text is not null && !text.TrimStart().StartsWith('-') && !char.IsDigit(text.TrimStart().FirstOrDefault())
        && Enum.TryParse<AssignmentMatch>(text, ignoreCase: true, out var match) ? match : null;
    public List<string> Values { get; set; } = [];
    public List<string> Collectors { get; set; } = [];
}

/// <summary>The assignment rules in force: configuration's, then the saved ones.</summary>
public sealed record AssignmentRules(IReadOnlyList<CollectorAssignment> Configured, IReadOnlyList<CollectorAssignment> Saved)
{
    public IReadOnlyList<CollectorAssignment> All => [.. Configured, .. Saved];
}

/// <summary>
/// Which collectors may lease which instances (table <c>collector_assignments</c>, rules from configuration before
/// them; <see cref="CollectorAssignments"/> is the rule set and the matching). A save replaces the saved list in one
/// write transaction with its audit entry; the lease query reads the rules inside its own transaction
/// (<see cref="Inventory.StoreInstanceSource"/>), so a save takes effect at the next lease.
/// </summary>
public sealed class AssignmentStore(IDbConnectionFactory connections, AuditLog audit, IOptions<AssignmentOptions>? options = null)
{
    /// <summary>A preview names at most this many unassigned instances.</summary>
    public const int PreviewNames = 50;

    public IReadOnlyList<CollectorAssignment> Configured { get; } = options?.Value.ToAssignments() ?? [];

    public async Task<AssignmentRules> ReadAsync(CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        return new(Configured, await ReadSavedAsync(connection, null, ct));
    }

    /// <summary>The rules in force, read inside the caller's transaction.</summary>
    internal async Task<IReadOnlyList<CollectorAssignment>> ReadAllAsync(DbConnection connection, DbTransaction tx, CancellationToken ct) =>
        [.. Configured, .. await ReadSavedAsync(connection, tx, ct)];

    static async Task<IReadOnlyList<CollectorAssignment>> ReadSavedAsync(DbConnection connection, DbTransaction? tx, CancellationToken ct)
    {
        const string sql = """
            SELECT match_kind AS MatchKind, match_values AS MatchValues, collectors AS Collectors
            FROM collector_assignments ORDER BY position;
            """;
        var rows = await connection.QueryAsync<RuleRow>(new CommandDefinition(sql, transaction: tx, cancellationToken: ct));
        return [.. rows.Select(r => new CollectorAssignment(Enum.Parse<AssignmentMatch>(r.MatchKind), r.MatchValues.Value, r.Collectors.Value))];
    }

    sealed class RuleRow
    {
        public string MatchKind { get; init; } = "";
        public JsonColumn<IReadOnlyList<string>> MatchValues { get; init; } = new([]);
        public JsonColumn<IReadOnlyList<string>> Collectors { get; init; } = new([]);
    }

    /// <summary>Replaces the saved rules, audited as <c>collector.assignments-saved</c> with the list before and after.</summary>
    /// <exception cref="ArgumentException">The rules break <see cref="CollectorAssignments.Check"/>: callers check first.</exception>
    public async Task SaveAsync(IReadOnlyList<CollectorAssignment> rules, CancellationToken ct)
    {
        const string deleteSql = "DELETE FROM collector_assignments;";
        const string insertSql = """
            INSERT INTO collector_assignments (position, match_kind, match_values, collectors)
            VALUES (@position, @matchKind, @matchValues, @collectors);
            """;
        if (CollectorAssignments.Check(rules).FirstOrDefault() is { } error)
            throw new ArgumentException($"{error.Path}: {error.Message}", nameof(rules));
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var before = await ReadSavedAsync(connection, tx, ct);
        await connection.ExecuteAsync(new CommandDefinition(deleteSql, transaction: tx, cancellationToken: ct));
        await connection.ExecuteAsync(new CommandDefinition(insertSql, rules.Select((r, i) => new
        {
            position = (long)i,
            matchKind = r.Match.ToString(),
            matchValues = new JsonColumn<IReadOnlyList<string>>(r.Values),
            collectors = new JsonColumn<IReadOnlyList<string>>(r.Collectors),
        }), tx, cancellationToken: ct));
        await audit.AppendAsync(connection, tx, AuditActions.CollectorAssignmentsSaved, "collector assignments",
            new { rules = before }, new { rules }, ct);
        await tx.CommitAsync(ct);
    }

    /// <summary>What <paramref name="saved"/> would assign, after the configured rules, over today's active instances.</summary>
    public async Task<AssignmentPreview> PreviewAsync(IReadOnlyList<CollectorAssignment> saved, CancellationToken ct)
    {
        IReadOnlyList<CollectorAssignment> all = [.. Configured, .. saved];
        var counts = new long[all.Count];
        var unassigned = new List<string>();
        long unassignedCount = 0;
        await using var connection = await connections.OpenAsync(ct);
        foreach (var instance in await ReadAssignableAsync(connection, null, "retired_at IS NULL", new { }, ct))
        {
            if (CollectorAssignments.RuleFor(all, instance.ToAssignable()) is { } rule)
                counts[rule]++;
            else if (unassignedCount++ < PreviewNames)
                unassigned.Add(instance.Name);
        }
        return new([.. all.Select((r, i) => new AssignmentRuleCount(r, i < Configured.Count, counts[i]))], unassignedCount, unassigned);
    }

    /// <summary>The instances a condition selects, with what the rules match and who leased each last.</summary>
    internal static async Task<IReadOnlyList<AssignableRow>> ReadAssignableAsync(DbConnection connection, DbTransaction? tx,
        string where, object parameters, CancellationToken ct, string orderBy = "name")
    {
        var sql = $"""
            SELECT id AS Id, name AS Name, external_key AS ExternalKey, environment AS Environment, tags AS Tags, host AS Host,
                last_leased_by AS LastLeasedBy
            FROM instances WHERE {where} ORDER BY {orderBy};
            """;
        return [.. await connection.QueryAsync<AssignableRow>(new CommandDefinition(sql, parameters, tx, cancellationToken: ct))];
    }

    internal sealed class AssignableRow
    {
        public long Id { get; init; }
        public string Name { get; init; } = "";
        public string? ExternalKey { get; init; }
        public string Environment { get; init; } = "";
        public JsonColumn<IReadOnlyList<string>> Tags { get; init; } = new([]);
        public string Host { get; init; } = "";
        public string? LastLeasedBy { get; init; }

        public AssignableInstance ToAssignable() => new(Name, ExternalKey, Environment, Tags.Value, Host);
    }
}
