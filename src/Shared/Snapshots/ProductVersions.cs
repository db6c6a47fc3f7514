namespace IfiDashboard.Shared.Snapshots;

public static class ProductVersions
{
    public static int Major(string productVersion) =>
        Version.TryParse(productVersion, out var v) ? v.Major : 0;

    /// <summary>
    /// Whether sys.dm_server_services has the instant_file_initialization_enabled column on this build: from 2012 SP4
    /// (11.0.7001), 2014 SP3 (12.0.6024), 2016 SP1 (13.0.4001) and in every later release. False when unknown.
    /// </summary>
    public static bool HasIfiColumn(string? productVersion) => Version.TryParse(productVersion, out var v) && v switch
    {
        { Major: >= 14 } => true,
        { Major: 13 } => v.Build >= 4001,
        { Major: 12 } => v.Build >= 6024,
        { Major: 11 } => v.Build >= 7001,
        _ => false,
    };

    /// <summary>
    /// Whether the engine writes "Database Instant File Initialization: enabled|disabled" to the error log at start-up:
    /// from 2012 SP4 (11.0.7001), 2014 SP2 (12.0.5000) and 2016 (13.0) on. False when unknown.
    /// </summary>
    public static bool WritesStartupIfiLine(string? productVersion) => Version.TryParse(productVersion, out var v) && v switch
    {
        { Major: >= 13 } => true,
        { Major: 12 } => v.Build >= 5000,
        { Major: 11 } => v.Build >= 7001,
        _ => false,
    };

    /// <summary>
    /// The Azure products by SERVERPROPERTY('EngineEdition'): their ProductVersion (12.0.2000.8 on Azure SQL Database)
    /// is an engine version, not a SQL Server release, so "SQL Server 2014" would be wrong. Null for boxed SQL Server.
    /// </summary>
    public static string? PlatformProduct(int? engineEdition) => engineEdition switch
    {
        5 => "Azure SQL Database",
        6 => "Azure Synapse Analytics",
        8 => "Azure SQL Managed Instance",
        9 => "Azure SQL Edge",
        11 => "Azure Synapse serverless SQL pool",
        _ => null,
    };

    /// <summary>"SQL Server 2019", or the Azure product for an Azure engine edition.</summary>
    public static string ProductName(string? productVersion, int? engineEdition) =>
        PlatformProduct(engineEdition) ?? ReleaseName(productVersion is null ? 0 : Major(productVersion));

    /// <summary>SQL Server release name for a major version (11 = 2012 ... 17 = 2025).</summary>
    public static string ReleaseName(int major) => major switch
    {
        11 => "SQL Server 2012",
        12 => "SQL Server 2014",
        13 => "SQL Server 2016",
        14 => "SQL Server 2017",
        15 => "SQL Server 2019",
        16 => "SQL Server 2022",
        17 => "SQL Server 2025",
        _ => major > 0 ? $"SQL Server (major {major})" : "unknown",
    };
}
