namespace IfiDashboard.Compliance.Accounts;

public enum ServiceAccountKind
{
    Unknown,

    /// <summary>NT Service\MSSQLSERVER: the per-service SID Microsoft recommends.</summary>
    VirtualAccount,

    /// <summary>Managed or group managed service account: DOMAIN\name$.</summary>
    ManagedServiceAccount,

    LocalSystem,
    NetworkService,
    LocalService,
    DomainUser,
    LocalUser,
}
