using System.Collections.Concurrent;
using System.Reflection;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// The T-SQL the collector sends, kept as embedded .sql files (Probes/Sql) that a DBA can open and run in SSMS.
/// </summary>
public static class SqlScripts
{
    public const string Identity = "identity";
    public const string HostInfo = "host-info";
    public const string ServicesIfiColumn = "services-ifi-column";
    public const string Services = "services";
    public const string ServicesLegacy = "services-legacy";
    public const string Clock = "clock";
    public const string TraceFlags = "trace-flags";
    public const string ClusterNodes = "cluster-nodes";
    public const string HadrEnabled = "hadr-enabled";
    public const string AvailabilityGroups = "availability-groups";
    public const string AvailabilityGroupsContained = "availability-groups-contained";
    public const string Files = "files";
    public const string DatabaseIds = "database-ids";
    public const string Volumes = "volumes";
    public const string Encryption = "encryption";
    public const string DefaultTrace = "default-trace";
    public const string GrowthEvents = "growth-events";
    public const string TraceWindow = "trace-window";
    public const string Backups = "backups";
    public const string ErrorLogIfi = "errorlog-ifi";
    public const string ErrorLogIfiExtended = "errorlog-ifi-extended";
    public const string ErrorLogSearch = "errorlog-search";
    public const string ErrorLogSearchExtended = "errorlog-search-extended";

    static readonly ConcurrentDictionary<string, string> Cache = new();

    public static string Get(string name) => Cache.GetOrAdd(name, Load);

    static string Load(string name)
    {
        var assembly = typeof(SqlScripts).Assembly;
        var resource = $"{assembly.GetName().Name}.Probes.Sql.{name}.sql";
        using var stream = assembly.GetManifestResourceStream(resource)
                           ?? throw new InvalidOperationException($"Embedded script '{resource}' is missing.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }

    public static IEnumerable<string> All =>
        typeof(SqlScripts).Assembly.GetManifestResourceNames().Where(n => n.EndsWith(".sql", StringComparison.Ordinal));
}
