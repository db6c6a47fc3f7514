using Dapper;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Dashboard;

/// <summary>Read-side queries behind the dashboard: fleet counts, an instance's recent polls.</summary>
public sealed class FleetReader(IDbConnectionFactory connections) : IFleetReader
{
    /// <summary>The reason shown for an instance that has no poll stored yet.</summary>
    public const string NotPolledYet = "not polled yet";

    /// <summary>
    /// An active instance's <see cref="InstanceState"/> (<see cref="StateRow"/>) from <c>instances i LEFT JOIN
    /// instance_state s</c>, with the parameter <c>@notPolledYet</c>. It starts with <c>i.id</c>, never null, where
    /// Dapper splits a joined row (an instance not polled yet still has a state: unknown, not polled yet).
    /// </summary>
    internal const string StateColumns = """
        i.id AS Id,
            s.product_version AS ProductVersion, s.product_level AS ProductLevel,
            s.product_update_level AS ProductUpdateLevel, s.edition AS Edition, s.host_platform AS HostPlatform,
            s.engine_service_account AS EngineServiceAccount,
            COALESCE(s.ifi_state, 'Unknown') AS IfiState,
            CASE WHEN s.instance_id IS NULL THEN @notPolledYet ELSE s.ifi_unknown_reason END AS IfiUnknownReason,
            s.last_poll_at AS LastPollAt, s.last_good_poll_at AS LastGoodPollAt,
            s.last_outcome AS LastOutcome, s.last_message AS LastMessage
        """;

    public async Task<FleetCounts> CountsAsync(CancellationToken cancellationToken)
    {
        const string sql = """
            SELECT COUNT(*) AS Total,
                COUNT(s.instance_id) AS Polled,
                COUNT(CASE WHEN s.ifi_state = 'Enabled' THEN 1 END) AS Enabled,
                COUNT(CASE WHEN s.ifi_state = 'Disabled' THEN 1 END) AS Disabled
            FROM instances i
            LEFT JOIN instance_state s ON s.instance_id = i.id
            WHERE i.retired_at IS NULL;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var row = await connection.QuerySingleAsync<CountsRow>(new CommandDefinition(sql, cancellationToken: cancellationToken));
        return new FleetCounts((int)row.Total, (int)row.Polled, (int)row.Enabled, (int)row.Disabled,
            (int)(row.Total - row.Enabled - row.Disabled));
    }

    /// <summary>The instance's latest polls, newest first.</summary>
    public async Task<IReadOnlyList<PollRow>> RecentPollsAsync(long instanceId, int max, CancellationToken cancellationToken)
    {
        const string sql = """
            SELECT id AS Id, snapshot_id AS SnapshotId, instance_id AS InstanceId, collector_name AS CollectorName,
                started_at AS StartedAt, finished_at AS FinishedAt, outcome AS Outcome, message AS Message,
                ifi_state AS IfiState, ifi_unknown_reason AS IfiUnknownReason, is_good AS IsGood
            FROM polls
            WHERE instance_id = @instanceId
            ORDER BY started_at DESC, id DESC
            LIMIT @max;
            """;
        await using var connection = await connections.OpenAsync(cancellationToken);
        var rows = await connection.QueryAsync<StoredPollRow>(
            new CommandDefinition(sql, new { instanceId, max }, cancellationToken: cancellationToken));
        return rows.Select(r => r.ToRecord()).ToList();
    }

    // Rows as SQLite returns them (times and enums as text); mapped to the public records above.
    internal sealed class StateRow
    {
        /// <summary>The instance's id: where a joined row is split, not part of the state.</summary>
        public long Id { get; init; }
        public string? ProductVersion { get; init; }
        public string? ProductLevel { get; init; }
        public string? ProductUpdateLevel { get; init; }
        public string? Edition { get; init; }
        public string? HostPlatform { get; init; }
        public string? EngineServiceAccount { get; init; }
        public string IfiState { get; init; } = "";
        public string? IfiUnknownReason { get; init; }
        public DateTimeOffset? LastPollAt { get; init; }
        public DateTimeOffset? LastGoodPollAt { get; init; }
        public string? LastOutcome { get; init; }
        public string? LastMessage { get; init; }

        public InstanceState ToRecord() => new(ProductVersion, ProductLevel,
            ProductUpdateLevel, Edition, HostPlatform, EngineServiceAccount, Enum.Parse<IfiState>(IfiState),
            IfiUnknownReason, LastPollAt, LastGoodPollAt,
            LastOutcome is null ? null : Enum.Parse<OutcomeClass>(LastOutcome), LastMessage);
    }

    sealed class CountsRow
    {
        public long Total { get; init; }
        public long Polled { get; init; }
        public long Enabled { get; init; }
        public long Disabled { get; init; }
    }

    sealed class StoredPollRow
    {
        public long Id { get; init; }
        public string SnapshotId { get; init; } = "";
        public long InstanceId { get; init; }
        public string CollectorName { get; init; } = "";
        public DateTimeOffset StartedAt { get; init; }
        public DateTimeOffset FinishedAt { get; init; }
        public string Outcome { get; init; } = "";
        public string? Message { get; init; }
        public string IfiState { get; init; } = "";
        public string? IfiUnknownReason { get; init; }
        public long IsGood { get; init; }

        public PollRow ToRecord() => new(Id, Guid.Parse(SnapshotId), InstanceId, CollectorName,
            StartedAt, FinishedAt, Enum.Parse<OutcomeClass>(Outcome), Message,
            Enum.Parse<IfiState>(IfiState), IfiUnknownReason, IsGood != 0);
    }
}
