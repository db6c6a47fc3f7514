namespace IfiDashboard.Shared.Compliance.Remediation;

/// <summary>The Windows steps for granting or revoking "Perform volume maintenance tasks" for one account.</summary>
static class PrivilegeSteps
{
    public const string VerifyQuery =
        "SELECT instant_file_initialization_enabled FROM sys.dm_server_services " +
        "WHERE process_id = SERVERPROPERTY('ProcessID')";

    const string Right = "\"Perform volume maintenance tasks\" (SE_MANAGE_VOLUME_NAME)";

    public static IReadOnlyList<string> Grant(string account, string serviceName) =>
    [
        $"On the host, open secpol.msc > Local Policies > User Rights Assignment > {Right} and add {account}.",
        "If a domain Group Policy assigns this right, add the account in that GPO instead: a local change is " +
        "overwritten at the next policy refresh.",
        "To script it without extra tools: secedit /export /cfg C:\\Temp\\rights.inf, append the account's SID " +
        "(*S-1-5-...) to the SeManageVolumePrivilege line, then secedit /configure /db C:\\Windows\\Temp\\rights.sdb " +
        "/cfg C:\\Temp\\rights.inf /areas USER_RIGHTS.",
        Restart(serviceName),
        Verify("Y"),
    ];

    public static IReadOnlyList<string> Revoke(string account, string serviceName) =>
    [
        $"On the host, open secpol.msc > Local Policies > User Rights Assignment > {Right} and remove {account} " +
        "(or remove it in the GPO that assigns the right).",
        "Local Administrators and LocalSystem hold this right as well: if the account is LocalSystem or a member of " +
        $"local Administrators, move the service to its virtual account NT Service\\{serviceName} " +
        "(SQL Server Configuration Manager) or IFI stays on.",
        Restart(serviceName),
        Verify("N"),
    ];

    public static string Restart(string serviceName) =>
        $"In a maintenance window, restart the SQL Server service ({serviceName}), e.g. " +
        $"Restart-Service -Name '{serviceName}' -Force: the privilege is read only at service start.";

    public static string Verify(string expected) =>
        $"Verify: {VerifyQuery}; it must return '{expected}'.";
}
