using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Probes;

/// <summary>The latest full backup of each database in msdb (the size a restore onto new files must zero).</summary>
internal static class BackupsProbe
{
    /// <summary>Backups older than this are not the ones a restore would use.</summary>
    static readonly TimeSpan Window = TimeSpan.FromDays(35);

    public static async Task<IReadOnlyList<BackupInfo>> RunAsync(ProbeContext context, DateTime nowUtc)
    {
        if (context.SkipOnAzure(ProbeNames.Backups)) return [];
        return await context.RunAsync<IReadOnlyList<BackupInfo>>(ProbeNames.Backups, [], async () =>
        {
            var rows = await context.Connection.QueryAsync<BackupRow>(
                context.Command(SqlScripts.Backups, ProbeContext.Parameters(("since", nowUtc - Window))));
            context.Ok(ProbeNames.Backups);
            // Newest first: the first row of each database is its latest full backup.
            return rows.GroupBy(r => r.database_name, StringComparer.OrdinalIgnoreCase)
                .Select(g => g.First())
                .Select(r => new BackupInfo(r.database_name, r.backup_finish_date, r.backup_size, r.compressed_backup_size))
                .ToList();
        });
    }
}
