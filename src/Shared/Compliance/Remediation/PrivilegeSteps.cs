using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Shared.Compliance.Remediation;

/// <summary>The Windows steps for granting or revoking "Perform volume maintenance tasks" for one account.</summary>
static class PrivilegeSteps
{
    public const string VerifyQuery =
        "SELECT instant_file_initialization_enabled FROM sys.dm_server_services " +
        "WHERE process_id = SERVERPROPERTY('ProcessID')";

    public const string StartupLineQuery = "EXEC sp_readerrorlog 0, 1, N'Database Instant File Initialization'";

    const string Right = "\"Perform volume maintenance tasks\" (SE_MANAGE_VOLUME_NAME)";

    public static IReadOnlyList<string> Grant(string account, string serviceName, string? productVersion) =>
    [
        $"On the host, open secpol.msc > Local Policies > User Rights Assignment > {Right} and add {account}.",
        "If a domain Group Policy assigns this right, add the account in that GPO instead: a local change is " +
        "overwritten at the next policy refresh.",
        "To script it without extra tools: secedit /export /cfg C:\\Temp\\rights.inf, append the account's SID " +
        "(*S-1-5-...) to the SeManageVolumePrivilege line, then secedit /configure /db C:\\Windows\\Temp\\rights.sdb " +
        "/cfg C:\\Temp\\rights.inf /areas USER_RIGHTS.",
        Restart(serviceName),
        Verify(IfiState.Enabled, productVersion),
    ];

    public static IReadOnlyList<string> Revoke(string account, string serviceName, string? productVersion) =>
    [
        $"On the host, open secpol.msc > Local Policies > User Rights Assignment > {Right} and remove {account} " +
        "(or remove it in the GPO that assigns the right).",
        "Local Administrators and LocalSystem hold this right as well: if the account is LocalSystem or a member of " +
        $"local Administrators, move the service to its virtual account NT Service\\{serviceName} " +
        "(SQL Server Configuration Manager) or IFI stays on.",
        Restart(serviceName),
        Verify(IfiState.Disabled, productVersion),
    ];

    public static string Restart(string serviceName) =>
        $"In a maintenance window, restart the SQL Server service ({serviceName}), e.g. " +
        $"Restart-Service -Name '{serviceName}' -Force: the privilege is read only at service start.";

    /// <summary>
    /// The check that fits the build: the DMV column where it exists; before it (2014 SP2, 2016 RTM) the line the
    /// engine writes at start-up, as Microsoft's IFI page says for those builds. With the version unknown, both.
    /// </summary>
    public static string Verify(IfiState expected, string? productVersion)
    {
        var flag = expected == IfiState.Enabled ? "Y" : "N";
        var word = expected == IfiState.Enabled ? "enabled" : "disabled";
        var startupLine = $"{StartupLineQuery}; its newest line must say '{word}' (written at each service start)";
        if (ProductVersions.HasIfiColumn(productVersion)) return $"Verify: {VerifyQuery}; it must return '{flag}'.";
        if (ProductVersions.WritesStartupIfiLine(productVersion)) return $"Verify: {startupLine}.";
        if (productVersion is null) return $"Verify: {VerifyQuery}; it must return '{flag}' (on 2014 SP2 or 2016 RTM, which lack that column: {startupLine}).";
        return "Verify on the host: this build reports IFI neither in sys.dm_server_services nor in the error log; " +
               "secpol.msc > User Rights Assignment > \"Perform volume maintenance tasks\" shows who holds the right.";
    }
}
