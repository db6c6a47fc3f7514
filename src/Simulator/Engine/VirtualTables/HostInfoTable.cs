using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>sys.dm_os_host_info, which exists from SQL Server 2017 on.</summary>
internal sealed class HostInfoTable : VirtualTable
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        ResultColumn.NVarChar("host_platform", 256, nullable: false),
        ResultColumn.NVarChar("host_distribution", 256, nullable: false),
        ResultColumn.NVarChar("host_release", 256, nullable: false),
        ResultColumn.NVarChar("host_service_pack_level", 256, nullable: false),
        new("host_sku", SqlType.Int),
        new("os_language_version", SqlType.Int, Nullable: false),
    ];

    public override string Name => "dm_os_host_info";

    public override int ObjectId => -1003;

    public override bool ExistsIn(VersionProfile profile) => profile.HasHostInfo;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        // Linux has no SKU or language id to report, hence NULL and 0.
        yield return ServerIdentity.IsLinux(session.Instance)
            ? ["Linux", "Ubuntu", "22.04", "", null, 0]
            : ["Windows", "Windows Server 2022 Datacenter", "10.0", "", 8, 1033];
    }
}
