using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.dm_os_cluster_nodes: one row per possible owner node of a failover cluster instance, none for a standalone
/// instance. Needs VIEW SERVER STATE, VIEW SERVER PERFORMANCE STATE from 2022 (reference section 1a).
/// </summary>
internal sealed class ClusterNodesTable : VirtualTable
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        ResultColumn.NVarChar("NodeName", 128),
        new("status", SqlType.Int),
        ResultColumn.NVarChar("status_description", 20),
        new("is_current_owner", SqlType.Bit),
    ];

    public override string Name => "dm_os_cluster_nodes";

    public override int ObjectId => -1009;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IReadOnlyList<SqlMessage>? Authorize(SessionContext session) => Permissions.PerformanceState(session);

    public override IEnumerable<object?[]> Rows(SessionContext session) =>
        session.Instance.ClusterNodes.Select((node, i) => new object?[] { node, 0, "up", i == 0 });
}
