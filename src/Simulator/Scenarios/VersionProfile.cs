namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// What a SQL Server build looks like to a client: its version strings and which objects and columns it has.
/// Facts from docs/sqlserver-reference.md (IFI column from 2012 SP4, 2014 SP3, 2016 SP1; host info from 2017).
/// </summary>
public sealed record VersionProfile(
    string Name,
    string ProductVersion,
    string ProductLevel,
    string? ProductUpdateLevel,
    int EngineEdition,
    bool HasIfiColumn,
    bool HasHostInfo,
    bool HasServerServices)
{
    public int Major => Version.Parse(ProductVersion).Major;
    public bool IsAzureSqlDatabase => EngineEdition == 5;
    /// <summary>SQL Server 2022 split VIEW SERVER STATE: the services DMV needs VIEW SERVER SECURITY STATE.</summary>
    public string ServerServicesPermission => Major >= 16 ? "VIEW SERVER SECURITY STATE" : "VIEW SERVER STATE";

    /// <summary>
    /// Whether start-up writes the "Database Instant File Initialization: enabled/disabled" line: 2012 SP4, 2014 SP2
    /// and 2016 on (reference section 2). Azure SQL Database has no error log to read.
    /// </summary>
    public bool LogsIfiAtStartup
    {
        get
        {
            if (EngineEdition is 5 or 8)
            {
                return false;
            }

            var version = Version.Parse(ProductVersion);
            return version.Major >= 13 || (version.Major == 12 && version.Build >= 5000) || (version.Major == 11 && version.Build >= 7001);
        }
    }
}

public static class VersionProfiles
{
    public static readonly IReadOnlyList<VersionProfile> All =
    [
        new("2012-SP3", "11.0.6020.0", "SP3", null, 3, HasIfiColumn: false, HasHostInfo: false, HasServerServices: true),
        new("2012-SP4", "11.0.7001.0", "SP4", null, 3, HasIfiColumn: true, HasHostInfo: false, HasServerServices: true),
        new("2014-SP2", "12.0.5000.0", "SP2", null, 3, HasIfiColumn: false, HasHostInfo: false, HasServerServices: true),
        new("2014-SP3", "12.0.6024.0", "SP3", null, 3, HasIfiColumn: true, HasHostInfo: false, HasServerServices: true),
        new("2016-RTM", "13.0.1601.5", "RTM", null, 3, HasIfiColumn: false, HasHostInfo: false, HasServerServices: true),
        new("2016-SP1", "13.0.4001.0", "SP1", null, 3, HasIfiColumn: true, HasHostInfo: false, HasServerServices: true),
        new("2017", "14.0.3456.2", "RTM", "CU31", 3, HasIfiColumn: true, HasHostInfo: true, HasServerServices: true),
        new("2019", "15.0.4385.2", "RTM", "CU28", 3, HasIfiColumn: true, HasHostInfo: true, HasServerServices: true),
        new("2022", "16.0.4135.4", "RTM", "CU14", 3, HasIfiColumn: true, HasHostInfo: true, HasServerServices: true),
        new("2025", "17.0.1000.7", "RTM", null, 3, HasIfiColumn: true, HasHostInfo: true, HasServerServices: true),
        new("azure-sql-db", "12.0.2000.8", "RTM", null, 5, HasIfiColumn: false, HasHostInfo: false, HasServerServices: false),
        // [U] Managed Instance: Microsoft documents sys.dm_server_services for SQL Server only, and the platform runs
        // no default trace a customer configures; modelled as absent (Msg 208) and as no default trace row.
        new("managed-instance", "12.0.2000.8", "RTM", null, 8, HasIfiColumn: true, HasHostInfo: true, HasServerServices: false),
    ];

    public static VersionProfile Get(string name) =>
        All.FirstOrDefault(p => string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase))
        ?? throw new ArgumentException(
            $"Unknown version profile '{name}'. Known: {string.Join(", ", All.Select(p => p.Name))}.", nameof(name));
}
