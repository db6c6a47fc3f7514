using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.all_columns, holding the columns of every modelled view as this build has them, so the collector's
/// "does the IFI column exist" guard gives the same answer as on a real server.
/// </summary>
internal sealed class AllColumnsTable : VirtualTable
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("object_id", SqlType.Int, Nullable: false),
        ResultColumn.NVarChar("name", 128),
        new("column_id", SqlType.Int, Nullable: false),
    ];

    public override string Name => "all_columns";

    public override int ObjectId => -1002;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IEnumerable<object?[]> Rows(SessionContext session) =>
        VirtualCatalog.Tables
            .Where(t => t.ExistsIn(session.Profile))
            .SelectMany(t => t.Columns(session.Profile).Select((c, i) => new object?[] { t.ObjectId, c.Name, i + 1 }));
}
