using IfiDashboard.Compliance.Facts;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Tests;

/// <summary>Realistic facts with sensible defaults, so each test states only what it is about.</summary>
static class Fleet
{
    public static readonly DateTimeOffset Now = new(2025, 5, 10, 12, 0, 0, TimeSpan.Zero);

    public const long MB = 1024 * 1024;
    public const long GB = 1024 * MB;

    /// <summary>Pages in a number of megabytes (8-KB pages: 128 per MB).</summary>
    public static long PagesOfMB(long megabytes) => megabytes * 128;

    public static InstanceFacts Instance(IfiState ifi = IfiState.Enabled, int major = 16, long id = 1,
        string name = "SQLPROD01", string environment = "Production", string[]? tags = null, string? owner = "dba",
        int engineEdition = 3, HostPlatform platform = HostPlatform.Windows, string? unknownReason = null,
        string? productVersion = null) => new()
    {
        Registration = new InstanceRegistration
        {
            Id = id, Name = name, Host = name, Environment = environment, Tags = tags ?? [], Owner = owner,
        },
        MajorVersion = major,
        // By default the first build of the release whose sys.dm_server_services has the IFI column.
        ProductVersion = productVersion ?? major switch { 11 => "11.0.7001.0", 12 => "12.0.6024.0", 13 => "13.0.4001.0", _ => $"{major}.0.1000.0" },
        EngineEdition = engineEdition,
        Platform = platform,
        MachineName = name,
        Ifi = new IfiObservation(ifi, ifi == IfiState.Unknown ? unknownReason ?? "unreachable" : null),
        LastGoodPollAt = Now.AddMinutes(-2),
        PollInterval = TimeSpan.FromMinutes(5),
        EngineServiceAccount = @"NT Service\MSSQLSERVER",
        ServiceStartedAt = Now.AddDays(-30),
    };

    public static DatabaseFileFacts DataFile(int databaseId = 5, string database = "Sales", string logical = "Sales",
        long sizePages = 131072, string path = @"D:\Data\Sales.mdf", long growth = 8192, bool percent = false) => new()
    {
        DatabaseId = databaseId,
        DatabaseName = database,
        LogicalName = logical,
        PhysicalPath = path,
        Type = FileType.Rows,
        SizePages = sizePages,
        Growth = growth,
        IsPercentGrowth = percent,
    };

    public static DatabaseFileFacts LogFile(int databaseId = 5, string database = "Sales", string logical = "Sales_log",
        long sizePages = 65536, string path = @"L:\Logs\Sales_log.ldf", long growth = 8192, bool percent = false) =>
        DataFile(databaseId, database, logical, sizePages, path, growth, percent) with { Type = FileType.Log };

    public static GrowthEventFacts DataGrowth(DateTimeOffset at, long pages, long microseconds, int databaseId = 5,
        string database = "Sales", string logical = "Sales") => new()
    {
        EventClass = GrowthEventFacts.DataFileAutoGrow,
        DatabaseId = databaseId,
        DatabaseName = database,
        LogicalFileName = logical,
        StartTime = at,
        DurationMicroseconds = microseconds,
        GrowthPages = pages,
    };

    public static GrowthEventFacts LogGrowth(DateTimeOffset at, long pages, long microseconds, int databaseId = 5,
        string database = "Sales", string logical = "Sales_log") =>
        DataGrowth(at, pages, microseconds, databaseId, database, logical) with { EventClass = GrowthEventFacts.LogFileAutoGrow };

    public static PollObservation Poll(DateTimeOffset at, IfiState ifi, DateTimeOffset? serviceStartedAt,
        string? account = @"NT Service\MSSQLSERVER") => new()
    {
        SnapshotId = Guid.NewGuid(),
        PolledAt = at,
        Ifi = ifi,
        ServiceAccount = account,
        ServiceStartedAt = serviceStartedAt,
    };

    public static InstanceFactSet Set(InstanceFacts instance, IEnumerable<DatabaseFileFacts>? files = null,
        IEnumerable<GrowthEventFacts>? growths = null, IEnumerable<DatabaseEncryptionFacts>? encryption = null,
        IEnumerable<PollObservation>? history = null) => new()
    {
        Instance = instance,
        Files = files?.ToList() ?? [],
        GrowthEvents = growths?.ToList() ?? [],
        Encryption = encryption?.ToList() ?? [],
        History = history?.ToList() ?? [],
    };
}
