namespace IfiDashboard.Compliance.Facts;

/// <summary>Operating system the instance runs on, from sys.dm_os_host_info (2017+; older builds are Windows).</summary>
public enum HostPlatform
{
    Unknown,
    Windows,
    Linux,
}

public static class HostPlatforms
{
    /// <summary>
    /// Maps host_platform. A null value means the DMV does not exist, i.e. a build before 2017, which only ran on
    /// Windows; that is why null is Windows and not Unknown.
    /// </summary>
    public static HostPlatform Parse(string? hostPlatform) => hostPlatform?.Trim() switch
    {
        null => HostPlatform.Windows,
        var p when p.Equals("Windows", StringComparison.OrdinalIgnoreCase) => HostPlatform.Windows,
        var p when p.Equals("Linux", StringComparison.OrdinalIgnoreCase) => HostPlatform.Linux,
        _ => HostPlatform.Unknown,
    };
}
