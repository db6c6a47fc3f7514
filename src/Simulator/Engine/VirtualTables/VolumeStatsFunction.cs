using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.dm_os_volume_stats(database_id, file_id): the volume a database file lives on. A file under one of the
/// instance's <see cref="ScenarioInstance.MountPoints"/> (a volume mounted in a folder) is on that volume, any other on
/// its drive (Windows) or the root (Linux), so files of one drive letter can be on several volumes, as SQL Server reports.
/// </summary>
internal sealed class VolumeStatsFunction(BoundExpr databaseId, BoundExpr fileId) : VirtualTable
{
    public const string FunctionName = "dm_os_volume_stats";

    private const long TotalBytes = 1L << 40;

    // "sys.dm_os_volume_stats (Transact-SQL)", learn.microsoft.com/sql/relational-databases/system-dynamic-management-views/sys-dm-os-volume-stats-transact-sql
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("database_id", SqlType.Int, Nullable: false),
        new("file_id", SqlType.Int, Nullable: false),
        ResultColumn.NVarChar("volume_mount_point", 512),
        ResultColumn.NVarChar("volume_id", 512),
        ResultColumn.NVarChar("logical_volume_name", 512),
        ResultColumn.NVarChar("file_system_type", 512),
        new("total_bytes", SqlType.BigInt, Nullable: false),
        new("available_bytes", SqlType.BigInt, Nullable: false),
        new("supports_compression", SqlType.Bit, Nullable: false),
        new("supports_alternate_streams", SqlType.Bit, Nullable: false),
        new("supports_sparse_files", SqlType.Bit, Nullable: false),
        new("is_read_only", SqlType.Bit, Nullable: false),
        new("is_compressed", SqlType.Bit, Nullable: false),
    ];

    private static readonly TypeSpec IntTarget = new("int", SqlType.Int);

    public override string Name => FunctionName;

    public override int ObjectId => -1101;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public static bool Names(IReadOnlyList<string> parts) => SystemFunctionCall.Names(parts, FunctionName);

    public static VolumeStatsFunction Bind(TableSource source, BindScope scope)
    {
        var arguments = SystemFunctionCall.BindArguments(source, scope, FunctionName, count: 2, firstOptional: 2);
        return new VolumeStatsFunction(arguments[0]!, arguments[1]!);
    }

    public override IReadOnlyList<SqlMessage>? Authorize(SessionContext session) => Permissions.PerformanceState(session);

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var database = databaseId.Evaluate([]) is { } d ? (int?)SqlConvert.To(d, IntTarget) : null;
        var file = fileId.Evaluate([]) is { } f ? (int?)SqlConvert.To(f, IntTarget) : null;
        var instance = session.Instance;
        var physical = DatabaseLayout.For(instance).FirstOrDefault(x => x.Id == database)?.Files.FirstOrDefault(x => x.FileId == file);
        if (physical is null)
        {
            // [U] a database or file id that does not exist: no row, as for other DMFs given an unknown id.
            return [];
        }

        var linux = InstancePaths.IsLinux(instance);
        var mountPoint = MountPointOf(instance, physical.PhysicalName);
        return
        [
            [
                database, file, mountPoint, VolumeId(mountPoint), "", linux ? "XFS" : "NTFS", TotalBytes, TotalBytes / 2,
                !linux, !linux, true, false, false,
            ],
        ];
    }

    /// <summary>The longest mount point the path lies under, else its drive root ("D:\") or "/".</summary>
    public static string MountPointOf(ScenarioInstance instance, string path)
    {
        var linux = InstancePaths.IsLinux(instance);
        var separator = InstancePaths.Separator(instance);
        var comparison = linux ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase;
        var mounted = instance.MountPoints
            .Select(m => m.EndsWith(separator) ? m : m + separator)
            .Where(m => path.StartsWith(m, comparison))
            .MaxBy(m => m.Length);
        return mounted ?? (linux || path.Length < 3 ? "/" : path[..3]);
    }

    /// <summary>A stable volume GUID path per mount point, as Windows names volumes.</summary>
    private static string VolumeId(string mountPoint) =>
        $@"\\?\Volume{{{new Guid(System.Security.Cryptography.MD5.HashData(System.Text.Encoding.UTF8.GetBytes(mountPoint.ToUpperInvariant())))}}}\";
}
