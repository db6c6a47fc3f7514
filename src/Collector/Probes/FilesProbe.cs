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
