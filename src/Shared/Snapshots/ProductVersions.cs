namespace IfiDashboard.Shared.Snapshots;

public static class ProductVersions
{
    public static int Major(string productVersion) =>
        Version.TryParse(productVersion, out var v) ? v.Major : 0;

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
