using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>sys.dm_server_services, shaped per docs/sqlserver-reference.md section 1.</summary>
internal sealed class ServerServicesTable : VirtualTable
{
    public const string IfiColumn = "instant_file_initialization_enabled";

    private static readonly IReadOnlyList<ResultColumn> BaseColumns =
    [
        ResultColumn.NVarChar("servicename", 256, nullable: false),
        new("startup_type", SqlType.Int),
        ResultColumn.NVarChar("startup_type_desc", 256, nullable: false),
        new("status", SqlType.Int),
        ResultColumn.NVarChar("status_desc", 256, nullable: false),
        new("process_id", SqlType.Int, Nullable: false),
        new("last_startup_time", SqlType.DateTimeOffset, Scale: 7),
        ResultColumn.NVarChar("service_account", 256, nullable: false),
        ResultColumn.NVarChar("filename", 256, nullable: false),
        ResultColumn.NVarChar("is_clustered", 1, nullable: false),
        ResultColumn.NVarChar("cluster_nodename", 256),
    ];

    private static readonly IReadOnlyList<ResultColumn> ColumnsWithIfi =
        [.. BaseColumns, ResultColumn.NVarChar(IfiColumn, 1)];

    public override string Name => "dm_server_services";

    public override int ObjectId => -1001;

    public override bool ExistsIn(VersionProfile profile) => profile.HasServerServices;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) =>
        profile.HasIfiColumn ? ColumnsWithIfi : BaseColumns;

    public override bool HasColumnOnSomeBuild(string column) =>
        string.Equals(column, IfiColumn, StringComparison.OrdinalIgnoreCase);

    // Simulator contract: VIEW SERVER STATE before 2022, only VIEW SERVER SECURITY STATE from 2022; sysadmin and
    // CONTROL SERVER imply every server permission. [U] A real 2022 server may let VIEW SERVER STATE imply the
    // security-state permission; the collector must cope with either answer, so the stricter one is modelled.
    public override IReadOnlyList<SqlMessage>? Authorize(SessionContext session)
    {
        string[] sufficient = ["sysadmin", "CONTROL SERVER", session.Profile.ServerServicesPermission];
        var granted = session.Login.Permissions.Any(p =>
            sufficient.Any(s => string.Equals(p.Trim(), s, StringComparison.OrdinalIgnoreCase)));
        return granted ? null : SqlErrors.PermissionDenied(session.Profile.ServerServicesPermission);
    }

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var width = Columns(session.Profile).Count;
        return ServiceRows.For(session).Select(row => row[..width]);
    }
}
