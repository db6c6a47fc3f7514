using IfiDashboard.Compliance.Facts;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Remediation;

/// <summary>The Windows steps for granting or revoking "Perform volume maintenance tasks" for one account.</summary>
static class PrivilegeSteps
{
    public const string VerifyQuery =
        "SELECT instant_file_initialization_enabled FROM sys.dm_server_services " +
        "WHERE process_id = SERVERPROPERTY('ProcessID')";

    public const string StartupLineQuery = "EXEC sp_readerrorlog 0, 1, N'Database Instant File Initialization'";

    const string Right = "\"Perform volume maintenance tasks\" (SE_MANAGE_VOLUME_NAME)";

    /// <summary>The start account is the service SID itself, or will be once the engine moves off LocalSystem.</summary>
    static bool RunsAsServiceSid(PrivilegeChange change) =>
        change.MovesOffLocalSystem || string.Equals(change.StartAccount, change.ServiceSid, StringComparison.OrdinalIgnoreCase);

    public static IReadOnlyList<string> Grant(PrivilegeChange change, InstanceFacts instance)
    {
        var sid = change.ServiceSid;
        var who = RunsAsServiceSid(change)
            ? $"add {sid} (the service's virtual account and SID)"
            : $"add {sid}, the service's own SID, which the engine holds whatever account starts it (Microsoft's " +
              $"recommendation; the right then goes to this service only, not to everything that runs as " +
              $"{change.StartAccount ?? "the SQL Server service account"})";
        return
        [
            $"On the host, open secpol.msc > Local Policies > User Rights Assignment > {Right} and {who}.",
            .. OnEveryNode(instance, "grant"),
            "If a domain Group Policy assigns this right, add the account in that GPO instead: a local change is " +
            "overwritten at the next policy refresh.",
            "To script it without extra tools: secedit /export /cfg C:\\Temp\\rights.inf, append the SID " +
            "(*S-1-5-80-... for a service SID) to the SeManageVolumePrivilege line, then secedit /configure /db " +
            "C:\\Windows\\Temp\\rights.sdb /cfg C:\\Temp\\rights.inf /areas USER_RIGHTS (the remediation pack's script does this, " +
            "or dbatools' Set-DbaPrivilege where it is installed).",
            Restart(change),
            Verify(IfiState.Enabled, instance.ProductVersion),
        ];
    }

    public static IReadOnlyList<string> Revoke(PrivilegeChange change, InstanceFacts instance)
    {
        var sid = change.ServiceSid;
        var whom = change.Principals.Count == 1 ? sid : $"both {string.Join(" and ", change.Principals)}";
        return
        [
            $"On the host, open secpol.msc > Local Policies > User Rights Assignment > {Right} and remove {whom} " +
            "(or remove them in the GPO that assigns the right). The right may be held by either: setup and dbatools' " +
            $"Set-DbaPrivilege grant it to the service SID {sid}, an administrator may have granted the start " +
            "account; the engine keeps IFI while any of them holds it.",
            "Local Administrators and LocalSystem hold this right as well: if the account is LocalSystem or a member of " +
            $"local Administrators, move the service to its virtual account {sid} " +
            "(SQL Server Configuration Manager) or IFI stays on.",
            .. OnEveryNode(instance, "remove it"),
            Restart(change),
            Verify(IfiState.Disabled, instance.ProductVersion),
        ];
    }

    /// <summary>Moving the engine off LocalSystem to its virtual account, which holds no right by itself.</summary>
    public static string MoveToVirtualAccount(string serviceName) =>
        $"In SQL Server Configuration Manager > SQL Server Services > the engine ({serviceName}) > Properties > Log On, " +
        $"choose This account: {PrivilegeChange.ServiceSidOf(serviceName)} with an empty password (Configuration Manager, not " +
        "services.msc, also moves the file and registry permissions). LocalSystem controls the whole host; the " +
        "virtual account holds only what is granted to it.";

    public static string Restart(PrivilegeChange change) =>
        string.Concat(AvailabilityGroupOrder(change).Select(s => s + " ")) + RestartOnly(change);

    /// <summary>
    /// Where the replicas restart in turn: secondaries first, then a planned failover, then the former primary, so the
    /// group stays available (docs/sqlserver-reference.md section 1c). One sentence per group the instance is in.
    /// </summary>
    public static IEnumerable<string> AvailabilityGroupOrder(PrivilegeChange change) => change.AvailabilityGroups.Select(g =>
    {
        var others = g.Replicas.Where(r => !string.Equals(r, g.PrimaryReplica, StringComparison.OrdinalIgnoreCase)).ToList();
        return g.IsPrimary
            ? $"This is the primary replica of availability group {g.Name}: never restart it first. Make the change on its " +
              $"secondaries ({(others.Count == 0 ? "none known" : string.Join(", ", others))}) and restart them, wait until they " +
              $"are synchronized, fail over (ALTER AVAILABILITY GROUP [{g.Name}] FAILOVER; on the synchronized secondary that " +
              "becomes primary), then restart this instance."
            : $"This is a secondary replica of availability group {g.Name} (primary: {g.PrimaryReplica ?? "unknown"}): restart it " +
              "before the primary, and wait until it is synchronized before the primary fails over to a secondary.";
    });

    static string RestartOnly(PrivilegeChange change)
    {
        if (change.ClusterRole is not { } role)
            return $"In a maintenance window, restart the SQL Server service ({change.ServiceName}), e.g. " +
                   $"Restart-Service -Name '{change.ServiceName}' -Force: the privilege is read only at service start.";
        return $"In a maintenance window, restart the instance through the cluster, never with the service manager (the " +
               $"cluster takes a service stopped behind its back for a failure and may fail it over or leave it down): " +
               $"Failover Cluster Manager > Roles > {role} > Take Offline, then Bring Online; or PowerShell " +
               $"Stop-ClusterGroup -Name '{role}'; Start-ClusterGroup -Name '{role}'. Moving the role to another node " +
               $"(Move-ClusterGroup -Name '{role}' -Node <node>) restarts the engine there too, once that node has the " +
               "right as well. The privilege is read only at service start.";
    }

    /// <summary>
    /// The right is local to each Windows host, read by whichever node starts the engine: on a failover cluster
    /// instance, every possible owner node must hold it (or none, to revoke), or IFI changes with each failover.
    /// </summary>
    static IEnumerable<string> OnEveryNode(InstanceFacts instance, string action)
    {
        if (!instance.IsClustered)
            yield break;
        yield return instance.ClusterNodes is { Count: > 0 } nodes
            ? $"This is a failover cluster instance: the right is local to each node, so {action} on every possible " +
              $"owner node, {string.Join(", ", nodes.Select((n, i) => i == 0 ? n + " (the current owner)" : n))} " +
              "(sys.dm_os_cluster_nodes), or in one GPO that applies to all of them; otherwise IFI changes at the next failover."
            : $"This is a failover cluster instance: the right is local to each node, so {action} on every possible " +
              "owner node (SELECT NodeName FROM sys.dm_os_cluster_nodes lists them; the collector could not read it: " +
              $"{ProbePermissions.For(ProbeNames.ClusterNodes, instance.MajorVersion)}), or in one GPO that applies to all " +
              "of them; otherwise IFI changes at the next failover.";
    }

    /// <summary>
    /// The check that fits the build: the DMV column where it exists; before it (2014 SP2, 2016 RTM) the line the
    /// engine writes at start-up, as Microsoft's IFI page says for those builds. With the version unknown, both.
    /// </summary>
    public static string Verify(IfiState expected, string? productVersion)
    {
        var flag = expected == IfiState.Enabled ? "Y" : "N";
        var word = expected == IfiState.Enabled ? "enabled" : "disabled";
        var startupLine = $"{StartupLineQuery}; its newest line must say '{word}' (written at each service start)";
        return PrivilegeChange.VerifyFor(productVersion) switch
        {
            VerifyMethod.ServicesDmv => $"Verify: {VerifyQuery}; it must return '{flag}'.",
            VerifyMethod.StartupErrorLog => $"Verify: {startupLine}.",
            VerifyMethod.DmvOrErrorLog => $"Verify: {VerifyQuery}; it must return '{flag}' (on 2014 SP2 or 2016 RTM, which lack that column: {startupLine}).",
            _ => HostRightsVerify,
        };
    }

    public const string HostRightsVerify =
        "Verify: this build reports IFI neither in sys.dm_server_services nor in the error log's start-up line. " +
        ZeroingTest + " Or on the host: secpol.msc > User Rights Assignment > \"Perform volume maintenance tasks\" " +
        "shows who holds the right (the engine reads it at start-up).";

    /// <summary>
    /// The one query-side check on builds that report IFI nowhere: trace flags 3004 and 3605 write each file the
    /// engine zeroes to the error log (docs/sqlserver-reference.md section 5; undocumented flags, widely used).
    /// </summary>
    public const string ZeroingTest =
        "In a quiet moment, as sysadmin: DBCC TRACEON(3004, 3605, -1); CREATE DATABASE ifi_check; " +
        "DBCC TRACEOFF(3004, 3605, -1); EXEC sp_readerrorlog 0, 1, N'Zeroing', N'ifi_check'; DROP DATABASE ifi_check; " +
        "a 'Zeroing' line for ifi_check.mdf means IFI is off; lines for the .ldf only mean it is on.";
}
