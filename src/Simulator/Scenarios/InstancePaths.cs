namespace IfiDashboard.Simulator.Scenarios;

/// <summary>Where an instance keeps its files by default, in the style of its platform.</summary>
internal static class InstancePaths
{
    public static bool IsLinux(ScenarioInstance instance) =>
        string.Equals(instance.Platform, "Linux", StringComparison.OrdinalIgnoreCase);

    public static char Separator(ScenarioInstance instance) => IsLinux(instance) ? '/' : '\\';

    /// <summary>The default data directory, without a trailing separator.</summary>
    public static string DataDirectory(ScenarioInstance instance) =>
        IsLinux(instance) ? "/var/opt/mssql/data" : InstanceRoot(instance) + @"\DATA";

    /// <summary>The error-log folder, which also holds the default trace files.</summary>
    public static string LogDirectory(ScenarioInstance instance) =>
        IsLinux(instance) ? "/var/opt/mssql/log" : InstanceRoot(instance) + @"\Log";

    public static string Combine(ScenarioInstance instance, string directory, string file) =>
        directory + Separator(instance) + file;

    // Setup names the instance folder MSSQL<major>.<instance id>, e.g. MSSQL15.MSSQLSERVER.
    private static string InstanceRoot(ScenarioInstance instance)
    {
        var major = VersionProfiles.Get(instance.Profile).Major;
        return $@"C:\Program Files\Microsoft SQL Server\MSSQL{major}.{instance.InstanceName ?? "MSSQLSERVER"}\MSSQL";
    }
}
