using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine;

/// <summary>Names and edition facts derived from a scenario instance, shared by SERVERPROPERTY, @@ functions and DMVs.</summary>
internal static class ServerIdentity
{
    public static bool IsLinux(ScenarioInstance instance) =>
        string.Equals(instance.Platform, "Linux", StringComparison.OrdinalIgnoreCase);

    public static string MachineName(ScenarioInstance instance) =>
        instance.MachineName ?? instance.Name.ToUpperInvariant();

    public static string ServerName(ScenarioInstance instance) =>
        instance.InstanceName is null ? MachineName(instance) : $@"{MachineName(instance)}\{instance.InstanceName}";

    public static bool IsAzure(VersionProfile profile) => profile.EngineEdition is 5 or 8;

    public static string Edition(SessionContext session) =>
        IsAzure(session.Profile) ? "SQL Azure" : session.Instance.Edition ?? "Developer Edition (64-bit)";

    /// <summary>The profile's engine edition, corrected when the scenario names a Standard or Express edition.</summary>
    public static int EngineEdition(SessionContext session)
    {
        var edition = session.Instance.Edition;
        if (session.Profile.EngineEdition != 3 || edition is null)
        {
            return session.Profile.EngineEdition;
        }

        if (edition.StartsWith("Standard", StringComparison.OrdinalIgnoreCase))
        {
            return 2;
        }

        return edition.StartsWith("Express", StringComparison.OrdinalIgnoreCase) ? 4 : 3;
    }

    public static string ReleaseYear(int major) => major switch
    {
        11 => "2012",
        12 => "2014",
        13 => "2016",
        14 => "2017",
        15 => "2019",
        16 => "2022",
        17 => "2025",
        _ => major.ToString(System.Globalization.CultureInfo.InvariantCulture),
    };
}
