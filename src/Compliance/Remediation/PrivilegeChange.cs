using IfiDashboard.Compliance.Accounts;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Remediation;

public enum PrivilegeAction
{
    Grant,
    Revoke,
}

/// <summary>How a change is confirmed on the instance's build (<see cref="PrivilegeChange.VerifyFor"/>).</summary>
public enum VerifyMethod
{
    /// <summary>sys.dm_server_services.instant_file_initialization_enabled (2012 SP4, 2014 SP3, 2016 SP1 and later).</summary>
    ServicesDmv,

    /// <summary>The "Database Instant File Initialization" line the engine writes at start-up (2014 SP2, 2016 RTM).</summary>
    StartupErrorLog,

    /// <summary>The version is unknown: the DMV column, or the start-up line where the column is missing.</summary>
    DmvOrErrorLog,

    /// <summary>The build reports IFI nowhere: only the host's user rights tell.</summary>
    HostRights,
}

/// <summary>
/// "Perform volume maintenance tasks" (SeManageVolumePrivilege) granted or revoked for one instance's engine: who,
/// on which hosts, the restart it needs and how to verify it. The instance page's steps and the remediation pack's
/// script and change plan are all written from this one record (<see cref="For"/>).
/// </summary>
public sealed record PrivilegeChange
{
    public const string PrivilegeName = "SeManageVolumePrivilege";

    public required PrivilegeAction Action { get; init; }
    /// <summary>The engine's Windows service: MSSQLSERVER or MSSQL$NAME.</summary>
    public required string ServiceName { get; init; }
    /// <summary>NT Service\&lt;service&gt;: the per-service SID, in the engine's token whatever account starts it.</summary>
    public required string ServiceSid { get; init; }
    /// <summary>The start account as the services DMV reports it; null when never read.</summary>
    public required string? StartAccount { get; init; }
    /// <summary>The accounts the right is granted to or removed from, the service SID first.</summary>
    public required IReadOnlyList<string> Principals { get; init; }
    /// <summary>The engine runs as LocalSystem, which holds the right itself: it must move to its virtual account.</summary>
    public required bool MovesOffLocalSystem { get; init; }
    public required bool IsClustered { get; init; }
    /// <summary>The failover cluster role as Failover Cluster Manager names it by default; null when not clustered.</summary>
    public required string? ClusterRole { get; init; }
    /// <summary>
    /// The Windows hosts that must hold (or lose) the right: every possible owner node of a failover cluster instance,
    /// else the machine the engine runs on. Empty when the collector could not read them.
    /// </summary>
    public required IReadOnlyList<string> Hosts { get; init; }
    public required VerifyMethod Verify { get; init; }
    /// <summary>The availability groups the instance hosts a replica of, with its role: the restart order follows them.</summary>
    public IReadOnlyList<AvailabilityGroupInfo> AvailabilityGroups { get; init; } = [];

    /// <summary>The primary replica of some group: restarted last, after a failover.</summary>
    public bool IsAvailabilityGroupPrimary => AvailabilityGroups.Any(g => g.IsPrimary);

    public static string ServiceSidOf(string serviceName) => $@"NT Service\{serviceName}";

    /// <summary>The Windows privilege change that takes a Windows instance to <paramref name="action"/>'s state.</summary>
    public static PrivilegeChange For(InstanceFacts instance, PrivilegeAction action)
    {
        var service = WindowsServiceNames.Engine(instance);
        var sid = ServiceSidOf(service);
        var account = instance.EngineServiceAccount?.Trim();
        var kind = ServiceAccountClassifier.KindOf(account ?? "", instance.MachineName);
        var isSid = account is not null && string.Equals(account, sid, StringComparison.OrdinalIgnoreCase);
        // Granting goes to the service SID only (as setup and dbatools' Set-DbaPrivilege do): granted to the start
        // account, the right would go to everything that runs as it. Revoking takes it from both, since either may
        // hold it. LocalSystem holds it by itself and cannot lose it: the engine moves to its virtual account instead.
        var revokeAccountToo = action == PrivilegeAction.Revoke && account is { Length: > 0 } && !isSid
                               && kind != ServiceAccountKind.LocalSystem;
        return new PrivilegeChange
        {
            Action = action,
            ServiceName = service,
            ServiceSid = sid,
            StartAccount = account,
            Principals = revokeAccountToo ? [sid, account!] : [sid],
            MovesOffLocalSystem = kind == ServiceAccountKind.LocalSystem,
            IsClustered = instance.IsClustered,
            ClusterRole = instance.IsClustered
                ? $"SQL Server ({(string.IsNullOrWhiteSpace(instance.SqlInstanceName) ? "MSSQLSERVER" : instance.SqlInstanceName)})"
                : null,
            Hosts = instance.IsClustered ? instance.ClusterNodes ?? [] : instance.MachineName is { Length: > 0 } machine ? [machine] : [],
            Verify = VerifyFor(instance.ProductVersion),
            AvailabilityGroups = instance.AvailabilityGroups,
        };
    }

    public static VerifyMethod VerifyFor(string? productVersion) =>
        ProductVersions.HasIfiColumn(productVersion) ? VerifyMethod.ServicesDmv
        : ProductVersions.WritesStartupIfiLine(productVersion) ? VerifyMethod.StartupErrorLog
        : productVersion is null ? VerifyMethod.DmvOrErrorLog
        : VerifyMethod.HostRights;

    /// <summary>The IFI state a poll shows once the change is in force (after the restart).</summary>
    public IfiState DesiredIfi => Action == PrivilegeAction.Grant ? IfiState.Enabled : IfiState.Disabled;
}
