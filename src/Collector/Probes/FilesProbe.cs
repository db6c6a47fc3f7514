using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Probes;

/// <summary>Database files (sys.master_files) and TDE state (sys.dm_database_encryption_keys).</summary>
internal static class FilesProbe
{
    public static async Task<IReadOnlyList<DatabaseFileInfo>> ReadFilesAsync(ProbeContext context)
    {
        if (context.SkipOnAzure(ProbeNames.Files)) return [];
        return await context.RunAsync<IReadOnlyList<DatabaseFileInfo>>(ProbeNames.Files, [], async () =>
        {
            var rows = (await context.Connection.QueryAsync<FileRow>(context.Command(SqlScripts.Files))).AsList();
            var databases = (await context.Connection.QueryAsync<int>(context.Command(SqlScripts.DatabaseIds))).AsList();
            var hidden = databases.Except(rows.Select(r => r.database_id)).Count();
            // Rows hidden by metadata visibility come back as no error: an Ok here would undercount restore risk.
            context.Add(hidden == 0
                ? new ProbeOutcome(ProbeNames.Files, OutcomeClass.Ok)
                : new ProbeOutcome(ProbeNames.Files, OutcomeClass.PermissionMissing,
                    $"sys.master_files shows the files of {databases.Count - hidden} of {databases.Count} databases: the " +
                    $"others are hidden from this login. Grant {context.PermissionFor(ProbeNames.Files)} to " +
                    $"{(context.Login is { } login ? $"[{login}]" : "the collector's login")}; until then files and restore risk are not updated."));
            return rows.Select(r => new DatabaseFileInfo
            {
                DatabaseId = r.database_id,
                DatabaseName = r.database_name ?? $"database {r.database_id}",
                FileId = r.file_id,
                LogicalName = r.name,
                PhysicalName = r.physical_name,
                Type = r.type,
                StateDesc = r.state_desc,
                SizePages = r.size,
                MaxSizePages = r.max_size,
                Growth = r.growth,
                IsPercentGrowth = r.is_percent_growth,
            }).ToList();
        });
    }

    /// <summary>
    /// The files with the volume each lives on (sys.dm_os_volume_stats), or as they were when it cannot be read: the
    /// engine then names volumes from the paths. The function takes one file a call (no CROSS APPLY on every build the
    /// collector reads), and every file of a folder is on that folder's volume, so one call per folder.
    /// </summary>
    public static async Task<IReadOnlyList<DatabaseFileInfo>> ReadVolumesAsync(ProbeContext context, IReadOnlyList<DatabaseFileInfo> files)
    {
        if (files.Count == 0 || context.SkipOnAzure(ProbeNames.Volumes)) return files;
        return await context.RunAsync<IReadOnlyList<DatabaseFileInfo>>(ProbeNames.Volumes, files, async () =>
        {
            var volumeOfFolder = new Dictionary<string, FileVolumeInfo?>(StringComparer.Ordinal);
            foreach (var file in files)
            {
                var folder = FolderOf(file.PhysicalName);
                if (volumeOfFolder.ContainsKey(folder)) continue;
                var row = await context.Connection.QuerySingleOrDefaultAsync<VolumeRow>(context.Command(SqlScripts.Volumes,
                    ProbeContext.Parameters(("database_id", file.DatabaseId), ("file_id", file.FileId))));
                volumeOfFolder[folder] = row is { volume_mount_point.Length: > 0 } ? new FileVolumeInfo
                {
                    MountPoint = row.volume_mount_point,
                    VolumeId = row.volume_id,
                    LogicalVolumeName = row.logical_volume_name is { Length: > 0 } name ? name : null,
                    TotalBytes = row.total_bytes,
                    AvailableBytes = row.available_bytes,
                } : null;
            }
            var located = files.Select(f => f with { Volume = volumeOfFolder[FolderOf(f.PhysicalName)] }).ToList();
            var mountPoints = located.Where(f => f.Volume is not null).Select(f => f.Volume!.MountPoint).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
            context.Ok(ProbeNames.Volumes, $"{mountPoints.Count} volume(s) hold the database files: {string.Join(", ", mountPoints)}.");
            return located;
        });
    }

    /// <summary>The folder a file is in, with its separator ("D:\Data\", "/var/opt/mssql/data/").</summary>
    static string FolderOf(string physicalName) => physicalName[..(physicalName.LastIndexOfAny(['\\', '/']) + 1)];

    public static async Task<IReadOnlyList<DatabaseEncryptionInfo>> ReadEncryptionAsync(ProbeContext context)
    {
        if (context.SkipOnAzure(ProbeNames.Encryption)) return [];
        return await context.RunAsync<IReadOnlyList<DatabaseEncryptionInfo>>(ProbeNames.Encryption, [], async () =>
        {
            var rows = await context.Connection.QueryAsync<EncryptionRow>(context.Command(SqlScripts.Encryption));
            context.Ok(ProbeNames.Encryption);
            return rows.Select(r => new DatabaseEncryptionInfo(r.database_id, r.encryption_state)).ToList();
        });
    }
}
