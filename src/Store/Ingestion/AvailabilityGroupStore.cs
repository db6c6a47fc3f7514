using System.Data.Common;
using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>
/// An instance's availability groups (table <c>availability_group_replicas</c>) and what each poll saw of its place in
/// a cluster (<c>polls.availability_roles</c>, <c>polls.cluster_owner</c>): a role or owner that differs from the
/// previous poll that read it is a failover or an owner move on the timeline (<c>ifi_changes</c>).
/// </summary>
internal static class AvailabilityGroupStore
{
    public static async Task WriteAsync(DbConnection connection, DbTransaction tx, StoredSnapshot poll, CancellationToken ct)
    {
        var snapshot = poll.Snapshot;
        var roles = AvailabilityGroupInfo.RolesText(snapshot.AvailabilityGroups);
        var owner = snapshot.Identity is { IsClustered: true } && snapshot.ClusterNodes is [var current, ..] ? current : null;
        if (roles is null && owner is null && snapshot.AvailabilityGroups is null) return;

        const string previousSql = """
            SELECT availability_roles AS Roles, cluster_owner AS Owner
            FROM polls
            WHERE instance_id = @instanceId AND id < @pollId AND (availability_roles IS NOT NULL OR cluster_owner IS NOT NULL)
            ORDER BY id DESC
            LIMIT 1;
            """;
        var previous = await connection.QuerySingleOrDefaultAsync<PreviousRow>(new CommandDefinition(previousSql,
            new { instanceId = snapshot.InstanceId, pollId = poll.PollId }, tx, cancellationToken: ct));
        if (previous is not null && poll.IsGood)
            await InstanceStateStore.InsertChangesAsync(connection, tx, poll, Changes(previous, roles, owner), ct);

        if (roles is not null || owner is not null)
            await connection.ExecuteAsync(new CommandDefinition(
                "UPDATE polls SET availability_roles = @roles, cluster_owner = @owner WHERE id = @pollId;",
                new { roles, owner, pollId = poll.PollId }, tx, cancellationToken: ct));
        if (snapshot.AvailabilityGroups is { } groups)
            await ReplaceGroupsAsync(connection, tx, snapshot.InstanceId, groups, ct);
    }

    static List<EngineChange> Changes(PreviousRow previous, string? roles, string? owner)
    {
        var changes = new List<EngineChange>();
        var before = AvailabilityGroupInfo.ParseRoles(previous.Roles);
        foreach (var (group, role) in AvailabilityGroupInfo.ParseRoles(roles))
            if (before.TryGetValue(group, out var old) && !string.Equals(old, role, StringComparison.OrdinalIgnoreCase))
                changes.Add(new EngineChange(EngineChange.AvailabilityRole, $"{group}={old}", $"{group}={role}"));
        if (previous.Owner is not null && owner is not null && !string.Equals(previous.Owner, owner, StringComparison.OrdinalIgnoreCase))
            changes.Add(new EngineChange(EngineChange.ClusterOwner, previous.Owner, owner));
        return changes;
    }

    static async Task ReplaceGroupsAsync(DbConnection connection, DbTransaction tx, long instanceId,
        IReadOnlyList<AvailabilityGroupInfo> groups, CancellationToken ct)
    {
        await connection.ExecuteAsync(new CommandDefinition(
            "DELETE FROM availability_group_replicas WHERE instance_id = @instanceId;", new { instanceId }, tx, cancellationToken: ct));
        if (groups.Count == 0) return;
        const string insert = """
            INSERT INTO availability_group_replicas (instance_id, group_id, group_name, local_role, primary_replica,
                is_contained, replicas, listeners)
            VALUES (@instanceId, @groupId, @groupName, @localRole, @primaryReplica, @isContained, @replicas, @listeners);
            """;
        await connection.ExecuteAsync(new CommandDefinition(insert, groups.Select(g => new
        {
            instanceId,
            groupId = g.GroupId.ToString("D"),
            groupName = g.Name,
            localRole = g.LocalRole,
            primaryReplica = g.PrimaryReplica,
            isContained = g.IsContained ? 1L : 0L,
            replicas = string.Join(',', g.Replicas),
            listeners = string.Join(',', g.Listeners),
        }), tx, cancellationToken: ct));
    }

    sealed class PreviousRow
    {
        public string? Roles { get; init; }
        public string? Owner { get; init; }
    }
}
