using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>sys.databases with the four system databases only.</summary>
internal sealed class DatabasesTable : VirtualTable
{
    public static readonly IReadOnlyList<string> Names = ["master", "tempdb", "model", "msdb"];

    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        ResultColumn.NVarChar("name", 128, nullable: false),
        new("database_id", SqlType.Int, Nullable: false),
        ResultColumn.NVarChar("state_desc", 60),
    ];

    public override string Name => "databases";

    public override int ObjectId => -1004;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IEnumerable<object?[]> Rows(SessionContext session) =>
        Names.Select((name, i) => new object?[] { name, i + 1, "ONLINE" });

    public static string? NameOf(long databaseId) =>
        databaseId >= 1 && databaseId <= Names.Count ? Names[(int)databaseId - 1] : null;
}
