using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// The Always On views (SQL Server 2012 and later, not Azure SQL Database), from the scenario's shared group facts
/// (reference section 1b). The catalog views show only what the login may see: without VIEW ANY DEFINITION no rows,
/// not an error. The DMVs need VIEW SERVER STATE, VIEW SERVER PERFORMANCE STATE from 2022.
/// </summary>
internal abstract class AvailabilityGroupView : VirtualTable
{
    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase && profile.Major >= 11;

    public override IEnumerable<object?[]> Rows(SessionContext session) =>
        session.Instance.AvailabilityGroups.SelectMany(group => Rows(session, group));

    protected abstract IEnumerable<object?[]> Rows(SessionContext session, ScenarioAvailabilityGroup group);

    protected static bool IsPrimary(SessionContext session, ScenarioAvailabilityGroup group) =>
        string.Equals(group.PrimaryReplica, session.Instance.Name, StringComparison.OrdinalIgnoreCase);

    protected static bool SeesMetadata(SessionContext session) => Permissions.HasAny(session, "VIEW ANY DEFINITION");
}

/// <summary>A DMV: refused with Msg 300 without the server-state permission of the build.</summary>
internal abstract class AvailabilityGroupStateView : AvailabilityGroupView
{
    public override IReadOnlyList<SqlMessage>? Authorize(SessionContext session)
    {
        var required = session.Profile.Major >= 16 ? "VIEW SERVER PERFORMANCE STATE" : "VIEW SERVER STATE";
        return Permissions.HasAny(session, required) ? null : SqlErrors.PermissionDenied(required);
    }
}

/// <summary>sys.availability_groups: one row per group this instance hosts a replica of.</summary>
internal sealed class AvailabilityGroupsTable : AvailabilityGroupView
{
    public override string Name => "availability_groups";

    public override int ObjectId => -1010;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) =>
    [
        new("group_id", SqlType.UniqueIdentifier, Nullable: false),
        ResultColumn.NVarChar("name", 128),
        new("failure_condition_level", SqlType.Int),
        new("health_check_timeout", SqlType.Int),
        ResultColumn.NVarChar("automated_backup_preference_desc", 60),
        .. profile.Major >= 16 ? [new ResultColumn("basic_features", SqlType.Bit), new ResultColumn("is_distributed", SqlType.Bit)] : (ResultColumn[])[],
        .. profile.Major >= 14 ? [ResultColumn.NVarChar("cluster_type_desc", 60)] : (ResultColumn[])[],
        .. profile.Major >= 16 ? [new ResultColumn("is_contained", SqlType.Bit)] : (ResultColumn[])[],
    ];

    public override bool HasColumnOnSomeBuild(string column) =>
        column is "basic_features" or "is_distributed" or "cluster_type_desc" or "is_contained";

    protected override IEnumerable<object?[]> Rows(SessionContext session, ScenarioAvailabilityGroup group)
    {
        if (!SeesMetadata(session)) yield break;
        var major = session.Profile.Major;
        yield return
        [
            group.GroupId, group.Name, 3, 30000, "SECONDARY",
            .. major >= 16 ? [false, false] : (object?[])[],
            .. major >= 14 ? ["WSFC"] : (object?[])[],
            .. major >= 16 ? [group.Contained] : (object?[])[],
        ];
    }
}

/// <summary>sys.availability_replicas: every replica of the group, on every replica (the cluster holds the metadata).</summary>
internal sealed class AvailabilityReplicasTable : AvailabilityGroupView
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("replica_id", SqlType.UniqueIdentifier),
        new("group_id", SqlType.UniqueIdentifier),
        ResultColumn.NVarChar("replica_server_name", 256),
        ResultColumn.NVarChar("endpoint_url", 128),
        ResultColumn.NVarChar("availability_mode_desc", 60),
        ResultColumn.NVarChar("failover_mode_desc", 60),
    ];

    public override string Name => "availability_replicas";

    public override int ObjectId => -1011;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    protected override IEnumerable<object?[]> Rows(SessionContext session, ScenarioAvailabilityGroup group) =>
        !SeesMetadata(session)
            ? []
            : group.ReplicaInstances.Select(replica => new object?[]
            {
                group.ReplicaId(replica.Name), group.GroupId, ServerIdentity.ServerName(replica),
                $"TCP://{ServerIdentity.MachineName(replica).ToLowerInvariant()}:5022", "SYNCHRONOUS_COMMIT", "AUTOMATIC",
            });
}

/// <summary>sys.availability_group_listeners: the group's listener, if it has one.</summary>
internal sealed class AvailabilityGroupListenersTable : AvailabilityGroupView
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("group_id", SqlType.UniqueIdentifier, Nullable: false),
        ResultColumn.NVarChar("listener_id", 36),
        ResultColumn.NVarChar("dns_name", 63),
        new("port", SqlType.Int),
    ];

    public override string Name => "availability_group_listeners";

    public override int ObjectId => -1012;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    protected override IEnumerable<object?[]> Rows(SessionContext session, ScenarioAvailabilityGroup group) =>
        !SeesMetadata(session) || group.Listener is null
            ? []
            : [[group.GroupId, group.GroupId.ToString("N")[..8], group.Listener, group.ListenerPort]];
}

/// <summary>
/// sys.dm_hadr_availability_replica_states: on the primary a row per replica; on a secondary only its own row
/// (Microsoft: "the view returns a row for only the local replica").
/// </summary>
internal sealed class AvailabilityReplicaStatesTable : AvailabilityGroupStateView
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("replica_id", SqlType.UniqueIdentifier),
        new("group_id", SqlType.UniqueIdentifier),
        new("is_local", SqlType.Bit),
        new("role", SqlType.TinyInt),
        ResultColumn.NVarChar("role_desc", 60),
        ResultColumn.NVarChar("connected_state_desc", 60),
        ResultColumn.NVarChar("synchronization_health_desc", 60),
    ];

    public override string Name => "dm_hadr_availability_replica_states";

    public override int ObjectId => -1013;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    protected override IEnumerable<object?[]> Rows(SessionContext session, ScenarioAvailabilityGroup group)
    {
        var primary = IsPrimary(session, group);
        foreach (var replica in group.ReplicaInstances)
        {
            var local = ReferenceEquals(replica, session.Instance);
            if (!primary && !local) continue;
            var isPrimary = string.Equals(replica.Name, group.PrimaryReplica, StringComparison.OrdinalIgnoreCase);
            yield return
            [
                group.ReplicaId(replica.Name), group.GroupId, local, (byte)(isPrimary ? 1 : 2),
                isPrimary ? "PRIMARY" : "SECONDARY", "CONNECTED", "HEALTHY",
            ];
        }
    }
}

/// <summary>sys.dm_hadr_availability_group_states: which replica is primary, on every replica.</summary>
internal sealed class AvailabilityGroupStatesTable : AvailabilityGroupStateView
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("group_id", SqlType.UniqueIdentifier, Nullable: false),
        ResultColumn.NVarChar("primary_replica", 128),
        ResultColumn.NVarChar("synchronization_health_desc", 60),
    ];

    public override string Name => "dm_hadr_availability_group_states";

    public override int ObjectId => -1014;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    protected override IEnumerable<object?[]> Rows(SessionContext session, ScenarioAvailabilityGroup group)
    {
        var primary = group.ReplicaInstances.First(r => string.Equals(r.Name, group.PrimaryReplica, StringComparison.OrdinalIgnoreCase));
        yield return [group.GroupId, ServerIdentity.ServerName(primary), "HEALTHY"];
    }
}
