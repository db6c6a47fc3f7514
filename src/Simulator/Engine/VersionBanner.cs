namespace IfiDashboard.Simulator.Engine;

/// <summary>The multi-line @@VERSION text, in the layout real builds use (scripts parse the year and the OS).</summary>
internal static class VersionBanner
{
    public static string For(SessionContext session)
    {
        var profile = session.Profile;
        if (ServerIdentity.IsAzure(profile))
        {
            return $"Microsoft SQL Azure (RTM) - {profile.ProductVersion} \n\tJul  3 2024 16:52:39 \n\t" +
                "Copyright (C) 2022 Microsoft Corporation\n";
        }

        var year = ServerIdentity.ReleaseYear(profile.Major);
        var level = profile.ProductUpdateLevel is null
            ? profile.ProductLevel
            : $"{profile.ProductLevel}-{profile.ProductUpdateLevel}";
        var host = ServerIdentity.IsLinux(session.Instance)
            ? "Linux (Ubuntu 22.04.4 LTS) <X64>"
            : "Windows Server 2022 Datacenter 10.0 <X64> (Build 20348: ) (Hypervisor)";
        return $"Microsoft SQL Server {year} ({level}) - {profile.ProductVersion} (X64) \n\tJul 25 2024 21:32:40 \n\t" +
            $"Copyright (C) {year} Microsoft Corporation\n\t{ServerIdentity.Edition(session)} on {host}\n";
    }
}
