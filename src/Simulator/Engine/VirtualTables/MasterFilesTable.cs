using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.master_files per reference section 6: sizes and growth in 8-KB pages. Azure SQL Database has no such view.
/// Nullability follows the documentation where it says, and real catalog metadata otherwise [U].
/// </summary>
internal sealed class MasterFilesTable : VirtualTable
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("database_id", SqlType.Int, Nullable: false),
        new("file_id", SqlType.Int, Nullable: false),
        new("type", SqlType.TinyInt, Nullable: false),
        ResultColumn.NVarChar("type_desc", 60),
        ResultColumn.NVarChar("name", 128, nullable: false),
        ResultColumn.NVarChar("physical_name", 260, nullable: false),
        new("state", SqlType.TinyInt),
        ResultColumn.NVarChar("state_desc", 60),
        new("size", SqlType.Int, Nullable: false),
        new("max_size", SqlType.Int, Nullable: false),
        new("growth", SqlType.Int, Nullable: false),
        // The documented order puts is_sparse (after is_media_read_only and is_read_only, not modelled) before
        // is_percent_growth; SELECT * returns the modelled columns in that order.
        new("is_sparse", SqlType.Bit, Nullable: false),
        new("is_percent_growth", SqlType.Bit, Nullable: false),
    ];

    public override string Name => "master_files";

    public override int ObjectId => -1005;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        // Catalog metadata visibility: without one of these the login sees fewer rows rather than an error.
        // [U] which rows a login without them still sees: here master's and tempdb's. The collector compares the
        // databases it sees files of with sys.databases.
        var seesAll = Permissions.HasAny(session, "CREATE DATABASE", "ALTER ANY DATABASE", "VIEW ANY DEFINITION");
        return DatabaseLayout.For(session.Instance).Where(d => seesAll || d.Id <= 2).SelectMany(d => d.Files.Select(f => new object?[]
        {
            d.Id, f.FileId, (byte)f.Type, f.Type == DatabaseFileType.Rows ? "ROWS" : "LOG", f.Name, f.PhysicalName,
            (byte)0, "ONLINE", f.SizePages, f.MaxSizePages, f.Growth, d.IsSnapshot, f.IsPercentGrowth,
        }));
    }
}
