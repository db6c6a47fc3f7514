namespace IfiDashboard.Shared.Snapshots;

/// <summary>
/// What each probe needs on each SQL Server version, and the statements that grant it: the one source the
/// collector's messages, the probe advice and the remediation plans all read (docs/sqlserver-reference.md).
/// </summary>
public static class ProbePermissions
{
    /// <summary>The error-log procedure's own name, for advice and for the collector's fallback.</summary>
    public const string ErrorLogExtendedProcedure = "xp_readerrorlog";

    /// <summary>
    /// The permission a probe needs, in words; null when every login may run it. <paramref name="major"/> 0 (unknown)
    /// names both sides of the 2022 split.
    /// </summary>
    public static string? For(string probe, int major) => probe switch
    {
        ProbeNames.Services or ProbeNames.Encryption => major switch
        {
            >= 16 => "VIEW SERVER SECURITY STATE",
            > 0 => "VIEW SERVER STATE",
            _ => "VIEW SERVER STATE (2019 and earlier) or VIEW SERVER SECURITY STATE (2022 and later)",
        },
        ProbeNames.ClusterNodes or ProbeNames.Volumes => major switch
        {
            >= 16 => "VIEW SERVER PERFORMANCE STATE",
            > 0 => "VIEW SERVER STATE",
            _ => "VIEW SERVER STATE (2019 and earlier) or VIEW SERVER PERFORMANCE STATE (2022 and later)",
        },
        // The DMVs refuse without the server-state permission; the catalog views show no rows without VIEW ANY DEFINITION.
        ProbeNames.AvailabilityGroups => major switch
        {
            >= 16 => "VIEW SERVER PERFORMANCE STATE and VIEW ANY DEFINITION",
            > 0 => "VIEW SERVER STATE and VIEW ANY DEFINITION",
            _ => "VIEW SERVER STATE (2019 and earlier) or VIEW SERVER PERFORMANCE STATE (2022 and later), and VIEW ANY DEFINITION",
        },
        ProbeNames.Files => "VIEW ANY DEFINITION",
        ProbeNames.DefaultTrace or ProbeNames.GrowthEvents => "ALTER TRACE",
        ProbeNames.ErrorLog => major switch
        {
            >= 16 => "VIEW ANY ERROR LOG",
            > 0 => $"EXECUTE on master.sys.{ErrorLogExtendedProcedure}",
            _ => $"EXECUTE on master.sys.{ErrorLogExtendedProcedure} (2019 and earlier) or VIEW ANY ERROR LOG (2022 and later)",
        },
        ProbeNames.Backups => "SELECT on msdb.dbo.backupset",
        _ => null,
    };

    /// <summary>The T-SQL a DBA runs to give <paramref name="login"/> what the probe needs on this version.</summary>
    public static IReadOnlyList<string> GrantStatements(string probe, int major, string login)
    {
        if (major == 0 && probe is ProbeNames.Services or ProbeNames.Encryption or ProbeNames.ErrorLog or ProbeNames.ClusterNodes
                or ProbeNames.AvailabilityGroups or ProbeNames.Volumes)
            return [.. GrantStatements(probe, 15, login).Select(s => s + " -- SQL Server 2019 and earlier"),
                    .. GrantStatements(probe, 16, login).Select(s => s + " -- SQL Server 2022 and later")];
        return probe switch
        {
            ProbeNames.Services or ProbeNames.Encryption or ProbeNames.Files or ProbeNames.DefaultTrace or ProbeNames.GrowthEvents
                or ProbeNames.ClusterNodes or ProbeNames.Volumes =>
                [$"USE master; GRANT {For(probe, major)} TO [{login}];"],
            // sp_readerrorlog's body checks securityadmin membership before 2022, whatever Microsoft's page says
            // (VIEW SERVER STATE): the collector then calls xp_readerrorlog itself, which EXECUTE on it allows.
            // securityadmin would work too, but it can grant any server permission, so it is not advised. An object
            // grant in master needs a user there first (else Msg 15151), as the msdb grant below does.
            ProbeNames.ErrorLog when major < 16 =>
                [$"USE master; CREATE USER [{login}] FOR LOGIN [{login}]; GRANT EXECUTE ON sys.{ErrorLogExtendedProcedure} TO [{login}];"],
            ProbeNames.ErrorLog => [$"USE master; GRANT VIEW ANY ERROR LOG TO [{login}];"],
            ProbeNames.AvailabilityGroups =>
                [$"USE master; GRANT {(major >= 16 ? "VIEW SERVER PERFORMANCE STATE" : "VIEW SERVER STATE")} TO [{login}]; GRANT VIEW ANY DEFINITION TO [{login}];"],
            ProbeNames.Backups =>
                [$"USE msdb; CREATE USER [{login}] FOR LOGIN [{login}]; GRANT SELECT ON dbo.backupset TO [{login}];"],
            _ => [],
        };
    }
}
