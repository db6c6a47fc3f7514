using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Remediation;

public static class WindowsServiceNames
{
    /// <summary>
    /// The engine's Windows service name: taken from a virtual account when there is one (NT Service\MSSQL$SALES
    /// names its own service), else MSSQLSERVER for the default instance and MSSQL$NAME for a named one.
    /// </summary>
    public static string Engine(InstanceFacts instance)
    {
        const string virtualPrefix = @"NT Service\";
        var account = instance.EngineServiceAccount?.Trim();
        if (account is not null && account.StartsWith(virtualPrefix, StringComparison.OrdinalIgnoreCase)
            && account.Length > virtualPrefix.Length)
            return account[virtualPrefix.Length..];
        return string.IsNullOrWhiteSpace(instance.SqlInstanceName) ? "MSSQLSERVER" : "MSSQL$" + instance.SqlInstanceName;
    }
}
