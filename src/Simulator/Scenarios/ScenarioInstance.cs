namespace IfiDashboard.Simulator.Scenarios;

/// <summary>One simulated SQL Server instance as a scenario file describes it (see docs/simulator.md).</summary>
public sealed partial class ScenarioInstance
{
    public required string Name { get; set; }
    /// <summary>Version profile name, e.g. "2012-SP3", "2019", "2022", "azure-sql-db" (see VersionProfiles).</summary>
    public required string Profile { get; set; }
    public string Platform { get; set; } = "Windows";
    public string? InstanceName { get; set; }
    public string? MachineName { get; set; }
    public string? Edition { get; set; }
    public string ServiceAccount { get; set; } = @"NT Service\MSSQLSERVER";
    public string AgentServiceAccount { get; set; } = @"NT Service\SQLSERVERAGENT";
    public bool IfiEnabled { get; set; }
    public DateTimeOffset LastStartupTime { get; set; } = new(2026, 11, 1, 6, 0, 0, TimeSpan.Zero);
    public int ProcessId { get; set; } = 4242;

    /// <summary>
    /// Seconds from accepting a connection to a completed login (PRELOGIN, TLS, LOGIN7) after which the server closes
    /// it, so a client that connects and sends nothing does not hold a connection for ever. [U] SQL Server's own limit
    /// is not documented; 60 s is what this simulator assumes.
    /// </summary>
    public int LoginTimeoutSeconds { get; set; } = 60;

    /// <summary>
    /// A failover cluster instance's possible owner nodes (sys.dm_os_cluster_nodes), the current owner first; empty
    /// for a standalone instance. Set, SERVERPROPERTY('IsClustered') is 1 and the services DMV says is_clustered 'Y'.
    /// </summary>
    public IReadOnlyList<string> ClusterNodes { get; set; } = [];

    /// <summary>
    /// Folders a volume of its own is mounted at (NTFS mount points, Linux mounts), e.g. <c>D:\Data\Sales</c>: a file
    /// under one is on that volume in sys.dm_os_volume_stats, any other on its drive (or "/").
    /// </summary>
    public IReadOnlyList<string> MountPoints { get; set; } = [];

    /// <summary>The availability groups this instance hosts a replica of, linked from the scenario's list at start.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public IReadOnlyList<ScenarioAvailabilityGroup> AvailabilityGroups { get; internal set; } = [];
    public EncryptionSupport Encryption { get; set; } = EncryptionSupport.Optional;
    public List<ScenarioLogin> Logins { get; set; } = [];
    public ScenarioFaults Faults { get; set; } = new();
    /// <summary>Fixed port; 0 lets the simulator pick a free loopback port.</summary>
    public int Port { get; set; }
    /// <summary>How the dashboard's demo registers this instance; the simulator itself ignores it.</summary>
    public ScenarioInventory? Inventory { get; set; }

    /// <summary>The server's local time minus UTC, in minutes: the trace, error log and msdb report local time.</summary>
    public int UtcOffsetMinutes { get; set; }

    /// <summary>
    /// The server's time zone (IANA or Windows id, e.g. "Europe/Berlin"). When set it replaces
    /// <see cref="UtcOffsetMinutes"/>: each moment is reported with the offset in force then, across daylight-saving
    /// changes, as a real server's local clock does.
    /// </summary>
    public string? TimeZone { get; set; }

    /// <summary>User databases, and system databases whose defaults it replaces (matched by name).</summary>
    public IReadOnlyList<ScenarioDatabase> Databases { get; set; } = [];

    public ScenarioDefaultTrace DefaultTrace { get; set; } = new();

    /// <summary>Autogrow and autoshrink history, oldest first; change it live with <see cref="AppendGrowthEvent"/>.</summary>
    public IReadOnlyList<ScenarioGrowthEvent> GrowthEvents { get; set; } = [];

    /// <summary>Zeroing reported in the current error log (trace flags 3004 and 3605).</summary>
    public IReadOnlyList<ScenarioZeroingEntry> ErrorLogZeroing { get; set; } = [];

    /// <summary>
    /// How often sp_cycle_errorlog ran since the last service start: the start-up lines (with the IFI line) are then in
    /// archived log number ErrorLogCyclesSinceStartup, and logs 0 up to it begin with "The error log has been
    /// reinitialized".
    /// </summary>
    public int ErrorLogCyclesSinceStartup { get; set; }

    /// <summary>Archived error logs kept (SQL Server's default is 6): a higher log number does not exist.</summary>
    public int ErrorLogArchives { get; set; } = 6;

    /// <summary>What sp_readerrorlog checks before SQL Server 2022 (the sources disagree; see ReadErrorLogCheck).</summary>
    public ReadErrorLogCheck ReadErrorLogCheck { get; set; } = ReadErrorLogCheck.DocumentedPermission;

    /// <summary>
    /// The language the engine writes its error log in: a localized SQL Server writes its start-up lines in its own
    /// language, so an English-only reader must not take them for "no IFI line". The version line is the same in
    /// every language.
    /// </summary>
    public ErrorLogLanguage ErrorLogLanguage { get; set; } = ErrorLogLanguage.English;

    /// <summary>Trace flags on globally (start-up -T or DBCC TRACEON(n, -1)), as DBCC TRACESTATUS(-1) lists them.</summary>
    public List<int> GlobalTraceFlags { get; set; } = [];

    /// <summary>msdb.dbo.backupset rows; backup_set_id is the 1-based position.</summary>
    public IReadOnlyList<ScenarioBackup> Backups { get; set; } = [];

    /// <summary>msdb.dbo.restorehistory rows.</summary>
    public IReadOnlyList<ScenarioRestore> Restores { get; set; } = [];
}

/// <summary>Inventory fields the dashboard's --demo registers the instance with (environment, owner, tags).</summary>
public sealed class ScenarioInventory
{
    public string Environment { get; set; } = "Production";
    public string? Owner { get; set; }
    public List<string> Tags { get; set; } = [];
    /// <summary>The collector's Encrypt setting for this instance: Mandatory, Optional or Strict.</summary>
    public string Encrypt { get; set; } = "Mandatory";
}

/// <summary>
/// sp_readerrorlog's permission check before SQL Server 2022. Microsoft's page names VIEW SERVER STATE; published
/// copies of the procedure's body check securityadmin membership and raise 15003 otherwise. From 2022 both say
/// VIEW ANY ERROR LOG.
/// </summary>
public enum ReadErrorLogCheck
{
    /// <summary>VIEW SERVER STATE (or securityadmin), as Microsoft's page says.</summary>
    DocumentedPermission,
    /// <summary>securityadmin membership only, as the procedure's body says.</summary>
    SecurityAdminRole,
}

/// <summary>
/// The error log's language. [U] The non-English start-up lines are this simulator's renderings, not the texts SQL
/// Server ships (Microsoft does not document them): what matters is that they are not the English ones.
/// </summary>
public enum ErrorLogLanguage
{
    English,
    German,
    French,
    Japanese,
}

/// <summary>How the instance answers the client's PRELOGIN encryption request.</summary>
public enum EncryptionSupport
{
    /// <summary>ENCRYPT_NOT_SUP: no TLS at all (clients with Encrypt=Mandatory fail).</summary>
    NotSupported,
    /// <summary>TLS if the client asks; login-only TLS when the client says ENCRYPT_OFF (Encrypt=Optional).</summary>
    Optional,
    /// <summary>Force Encryption: always full TLS inside PRELOGIN.</summary>
    Required,
    /// <summary>TDS 8.0: TLS before any TDS packet (Encrypt=Strict); PRELOGIN-embedded TLS also accepted.</summary>
    Strict,
}

public sealed class ScenarioLogin
{
    /// <summary>A SQL login's name, or a Windows login's (<c>IFI\collector</c>: the Kerberos principal collector@IFI.TEST).</summary>
    public required string Name { get; set; }
    /// <summary>A SQL login's password; null for a Windows login, which signs in with integrated security only.</summary>
    public string? Password { get; set; }
    /// <summary>Server permissions such as "VIEW SERVER STATE", "VIEW SERVER SECURITY STATE", "ALTER TRACE"; or "sysadmin".</summary>
    public List<string> Permissions { get; set; } = ["sysadmin"];
}

/// <summary>Deterministic faults, applied per instance.</summary>
public sealed class ScenarioFaults
{
    /// <summary>Refuse TCP connections (nothing listens).</summary>
    public bool RefuseConnections { get; set; }
    /// <summary>Reset this many connections right after accepting them (a flaky network or a failover): transient.</summary>
    public int ResetFirstConnections { get; set; }
    /// <summary>Accept the socket but never answer PRELOGIN.</summary>
    public bool HangInPreLogin { get; set; }
    /// <summary>Delay before answering every batch, in milliseconds.</summary>
    public int QueryDelayMs { get; set; }
    /// <summary>Close the socket in the middle of the first result set of a batch.</summary>
    public bool ResetMidResult { get; set; }
    /// <summary>Answer every query with this error number instead (0: none).</summary>
    public int ErrorNumber { get; set; }
}
