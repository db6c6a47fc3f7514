using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.master_files per reference section 6: sizes and growth in 8-KB pages. Azure SQL Database has no such view.
/// Nullability follows the documentation where it says, and real catalog metadata otherwise [U].
/// </summary>
internal sealed class MasterFilesTable : VirtualTable
{
    // Every column of the documented list ("sys.master_files (Transact-SQL)"), in its order, so SELECT * answers as
    // SQL Server does. LSNs are numeric(25,0), NULL where the server has none to report (no backup, never read-only).
    private static readonly ResultColumn Lsn = new("lsn", SqlType.Numeric, Precision: 25);

    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("database_id", SqlType.Int, Nullable: false),
        new("file_id", SqlType.Int, Nullable: false),
        new("file_guid", SqlType.UniqueIdentifier),
        new("type", SqlType.TinyInt, Nullable: false),
        ResultColumn.NVarChar("type_desc", 60),
        new("data_space_id", SqlType.Int, Nullable: false),
        ResultColumn.NVarChar("name", 128, nullable: false),
        ResultColumn.NVarChar("physical_name", 260, nullable: false),
        new("state", SqlType.TinyInt),
        ResultColumn.NVarChar("state_desc", 60),
        new("size", SqlType.Int, Nullable: false),
        new("max_size", SqlType.Int, Nullable: false),
        new("growth", SqlType.Int, Nullable: false),
        new("is_media_read_only", SqlType.Bit, Nullable: false),
        new("is_read_only", SqlType.Bit, Nullable: false),
        new("is_sparse", SqlType.Bit, Nullable: false),
        new("is_percent_growth", SqlType.Bit, Nullable: false),
        new("is_name_reserved", SqlType.Bit, Nullable: false),
        // [U] the build that added is_persistent_log_buffer (persistent-memory log buffers came with 2016 SP1; the
        // column is taken as 2017's) and its place, after is_name_reserved as in sys.database_files.
        new("is_persistent_log_buffer", SqlType.Bit, Nullable: false),
        Lsn with { Name = "create_lsn" },
        Lsn with { Name = "drop_lsn" },
        Lsn with { Name = "read_only_lsn" },
        Lsn with { Name = "read_write_lsn" },
        Lsn with { Name = "differential_base_lsn" },
        new("differential_base_guid", SqlType.UniqueIdentifier),
        new("differential_base_time", SqlType.DateTime),
        Lsn with { Name = "redo_start_lsn" },
        new("redo_start_fork_guid", SqlType.UniqueIdentifier),
        Lsn with { Name = "redo_target_lsn" },
        new("redo_target_fork_guid", SqlType.UniqueIdentifier),
        Lsn with { Name = "backup_lsn" },
        new("credential_id", SqlType.Int),
    ];

    private const int PersistentLogBufferMajor = 14;

    public override string Name => "master_files";

    public override int ObjectId => -1005;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) =>
        profile.Major >= PersistentLogBufferMajor ? Shape : [.. Shape.Where(c => c.Name != "is_persistent_log_buffer")];

    public override bool HasColumnOnSomeBuild(string column) => column.Equals("is_persistent_log_buffer", StringComparison.OrdinalIgnoreCase);

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        // Catalog metadata visibility: without one of these the login sees fewer rows rather than an error.
        // [U] which rows a login without them still sees: here master's and tempdb's. The collector compares the
        // databases it sees files of with sys.databases.
        var seesAll = Permissions.HasAny(session, "CREATE DATABASE", "ALTER ANY DATABASE", "VIEW ANY DEFINITION");
        var persistentLogBuffer = session.Profile.Major >= PersistentLogBufferMajor;
        return DatabaseLayout.For(session.Instance).Where(d => seesAll || d.Id <= 2).SelectMany(d => d.Files.Select(f =>
        {
            object?[] leading =
            [
                d.Id, f.FileId, FileGuid(d.Id, f.FileId), (byte)f.Type, f.Type == DatabaseFileType.Rows ? "ROWS" : "LOG",
                f.Type == DatabaseFileType.Rows ? 1 : 0, f.Name, f.PhysicalName, (byte)0, "ONLINE", f.SizePages,
                f.MaxSizePages, f.Growth, false, false, d.IsSnapshot, f.IsPercentGrowth, false,
            ];
            // The LSNs, base and fork GUIDs, base time and credential: nothing to report on a simulated file.
            object?[] trailing = new object?[14];
            object?[] row = persistentLogBuffer ? [.. leading, false, .. trailing] : [.. leading, .. trailing];
            return row;
        }));
    }

    /// <summary>A stable file_guid per database and file, so that repeated reads agree (data files are in filegroup 1, logs in 0).</summary>
    private static Guid FileGuid(int databaseId, int fileId) =>
        new(databaseId, (short)fileId, 0x4000, [0x80, 0, 0, 0, 0, 0, 0, 1]);
}
