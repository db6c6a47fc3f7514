using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Accounts;

/// <summary>Classifies sys.dm_server_services.service_account, which Windows reports in several spellings.</summary>
public static class ServiceAccountClassifier
{
    /// <summary>How Windows spells LocalSystem; the remediation script and "remediation pending" compare with this list too.</summary>
    public static IReadOnlyList<string> LocalSystemNames { get; } = ["LocalSystem", @"NT AUTHORITY\SYSTEM", @".\LocalSystem", "SYSTEM"];
    static readonly string[] NetworkServiceNames = [@"NT AUTHORITY\NETWORK SERVICE", @"NT AUTHORITY\NetworkService", "NetworkService"];
    static readonly string[] LocalServiceNames = [@"NT AUTHORITY\LOCAL SERVICE", @"NT AUTHORITY\LocalService", "LocalService"];

    public static ServiceAccountClassification Classify(string? account, string? machineName, HostPlatform platform)
    {
        var name = account?.Trim() ?? "";
        var kind = KindOf(name, machineName);
        return kind switch
        {
            ServiceAccountKind.LocalSystem when platform == HostPlatform.Linux => new(name, kind, false,
                "Linux reports LocalSystem, but SQL Server runs as the unprivileged mssql user"),
            ServiceAccountKind.LocalSystem => new(name, kind, true,
                "LocalSystem has full control of the machine: whoever takes over SQL Server (xp_cmdshell, CLR, " +
                "a job step) owns the host. Use the virtual account NT Service\\<service> or a gMSA"),
            ServiceAccountKind.VirtualAccount => new(name, kind, false, "virtual account: the recommended choice"),
            ServiceAccountKind.ManagedServiceAccount => new(name, kind, false,
                "managed service account: password rotated by the domain"),
            ServiceAccountKind.NetworkService => new(name, kind, false,
                "Network Service: shared by every service that uses it, so privileges granted to it are shared too"),
            ServiceAccountKind.LocalService => new(name, kind, false,
                "Local Service: shared by every service that uses it, no network identity"),
            ServiceAccountKind.DomainUser => new(name, kind, false,
                "domain user: check it is not a member of local Administrators, which would include this privilege"),
            ServiceAccountKind.LocalUser => new(name, kind, false, "local user account of this machine"),
            _ => new(name, kind, false, name.Length == 0 ? "no service account reported" : "unrecognised account form"),
        };
    }

    public static ServiceAccountKind KindOf(string account, string? machineName)
    {
        if (account.Length == 0)
            return ServiceAccountKind.Unknown;
        if (IsOneOf(account, LocalSystemNames))
            return ServiceAccountKind.LocalSystem;
        if (IsOneOf(account, NetworkServiceNames))
            return ServiceAccountKind.NetworkService;
        if (IsOneOf(account, LocalServiceNames))
            return ServiceAccountKind.LocalService;
        if (account.StartsWith(@"NT Service\", StringComparison.OrdinalIgnoreCase))
            return ServiceAccountKind.VirtualAccount;
        if (account.EndsWith('$'))
            return ServiceAccountKind.ManagedServiceAccount;
        if (account.Contains('@'))
            return ServiceAccountKind.DomainUser;

        var slash = account.IndexOf('\\');
        if (slash <= 0 || slash == account.Length - 1)
            return ServiceAccountKind.Unknown;
        var authority = account[..slash];
        var isThisMachine = authority == "."
            || (machineName is not null && string.Equals(authority, machineName, StringComparison.OrdinalIgnoreCase));
        return isThisMachine ? ServiceAccountKind.LocalUser : ServiceAccountKind.DomainUser;
    }

    static bool IsOneOf(string account, IReadOnlyList<string> names) =>
        names.Any(n => string.Equals(n, account, StringComparison.OrdinalIgnoreCase));
}
