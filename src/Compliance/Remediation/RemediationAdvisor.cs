using IfiDashboard.Compliance.Accounts;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Remediation;

public static class RemediationAdvisor
{
    public const string CollectorLoginPlaceholder = "<collector login>";

    /// <param name="collectorLogin">The login the collector uses, for the GRANT statement when permission is missing.</param>
    public static RemediationPlan For(InstanceFacts instance, InstanceCompliance compliance,
        string collectorLogin = CollectorLoginPlaceholder) => compliance.Status switch
    {
        ComplianceStatus.Compliant => Nothing("Compliant: nothing to do", PrivilegeSteps.Verify(instance.Ifi.State, instance.ProductVersion)),
        ComplianceStatus.NotApplicable => Nothing("Not applicable: nothing to do", compliance.Explanation),
        ComplianceStatus.Unknown when compliance.Policy.Source == PolicySource.Undecided && instance.Ifi.State != IfiState.Unknown =>
            PolicyUndecided(compliance.Policy),
        ComplianceStatus.Unknown => ForUnknown(instance, collectorLogin),
        ComplianceStatus.Waived => Waived(instance, compliance),
        _ => ForDeviation(instance, compliance.Policy.Desired),
    };

    /// <summary>For a TDE database: nothing on the instance can give its data files IFI.</summary>
    public static RemediationPlan ForTdeDatabase(string databaseName) => new(RemediationKind.TdeDatabase,
        $"{databaseName} uses TDE: IFI cannot help its data files",
        [
            $"TDE prevents instant file initialization for the data files of {databaseName}: they are zeroed on " +
            "growth and restore whatever the service account's privileges.",
            "Pre-size the data files in a maintenance window and use a fixed growth increment, so that growth " +
            "stalls are rare, short and predictable.",
            "Plan restores of this database with its zeroing time (see restore risk).",
        ]);

    /// <summary>
    /// LocalSystem's token holds SE_MANAGE_VOLUME_NAME whatever the user rights say, so IFI off under LocalSystem is
    /// not "the right is missing": something overrides it. Said first, so nobody grants a right the account has.
    /// </summary>
    public const string LocalSystemWithoutIfi =
        "Under LocalSystem the engine's token holds the privilege (SE_MANAGE_VOLUME_NAME) by itself, so IFI off here is " +
        "unexpected: a trace flag that the trace-flags probe could not read (DBCC TRACESTATUS(-1): 1805, 1806), or a " +
        "privilege removed from the account's token (a hardening baseline or a Group Policy on the host). Find which " +
        "before the move: the move below ends LocalSystem's other privileges either way.";

    /// <summary>"1805 or 1806", from the one list of flags that disable IFI.</summary>
    internal static readonly string DisablingFlags = string.Join(" or ", IfiObservation.DisablingTraceFlags);

    static RemediationPlan ForDeviation(InstanceFacts instance, DesiredState desired)
    {
        var account = instance.EngineServiceAccount ?? "the SQL Server service account";
        var service = WindowsServiceNames.Engine(instance);
        var grant = desired == DesiredState.Required;

        if (instance.Platform == HostPlatform.Linux)
            return LinuxCheck(grant, instance.ProductVersion);

        // The facts say a flag overrides the right, not which one (the trace-flags probe's message names it): the
        // advice names both and lets DBCC TRACESTATUS tell.
        if (grant && instance.IfiOffByTraceFlag)
            return new(RemediationKind.RemoveTraceFlag, $"Remove trace flag {DisablingFlags}: it disables IFI though {account} holds the right",
            [
                $"DBCC TRACESTATUS(-1) lists trace flag {DisablingFlags} on globally (the trace-flags probe on this page names " +
                "which): it disables instant file initialization for data files whatever the service account holds, so " +
                "granting the right again changes nothing.",
                $"Remove -T1805 / -T1806 from the engine's start-up parameters (SQL Server Configuration Manager > " +
                $"SQL Server Services > {service} > Properties > Startup Parameters), after asking who set it and why.",
                PrivilegeSteps.Restart(PrivilegeChange.For(instance, PrivilegeAction.Grant)) + " (whether DBCC TRACEOFF(<flag>, -1) suffices without a restart is unconfirmed)",
                "Verify: DBCC TRACESTATUS(-1) lists neither 1805 nor 1806.",
            ]);

        var change = PrivilegeChange.For(instance, grant ? PrivilegeAction.Grant : PrivilegeAction.Revoke);
        var sid = change.ServiceSid;
        // LocalSystem holds the right by itself and controls the host: the fix is the move to the virtual account.
        if (change.MovesOffLocalSystem)
            return grant
                ? new(RemediationKind.GrantPrivilege, $"Move the engine from LocalSystem to {sid}, then grant it \"Perform volume maintenance tasks\"",
                    [LocalSystemWithoutIfi, PrivilegeSteps.MoveToVirtualAccount(service), .. PrivilegeSteps.Grant(change, instance)]) { Change = change }
                : new(RemediationKind.RevokePrivilege, $"Move the engine from LocalSystem (which holds the right itself) to {sid}, without the right",
                    [PrivilegeSteps.MoveToVirtualAccount(service), .. PrivilegeSteps.Revoke(change, instance)]) { Change = change };

        var named = string.Equals(account, sid, StringComparison.OrdinalIgnoreCase) ? sid : $"{sid} (or {account})";
        return grant
            ? new(RemediationKind.GrantPrivilege, $"Grant \"Perform volume maintenance tasks\" to {named}",
                PrivilegeSteps.Grant(change, instance)) { Change = change }
            : new(RemediationKind.RevokePrivilege,
                $"Revoke \"Perform volume maintenance tasks\" from {string.Join(" and ", change.Principals)}",
                PrivilegeSteps.Revoke(change, instance)) { Change = change };
    }

    static RemediationPlan Waived(InstanceFacts instance, InstanceCompliance compliance)
    {
        var plan = ForDeviation(instance, compliance.Policy.Desired);
        var until = compliance.Waiver is { } w ? ComplianceFormat.Moment(w.ExpiresAt) : "its expiry";
        return plan with
        {
            Title = $"Waived until {until}; then: {plan.Title}",
            Steps = [$"Nothing is due while the waiver lasts (until {until}). Before it ends:", .. plan.Steps],
        };
    }

    /// <summary>
    /// SQL Server on Linux: no Windows right; trace flags 1805/1806, set with mssql-conf, make it zero data files
    /// (docs/sqlserver-reference.md section 1b).
    /// </summary>
    static RemediationPlan LinuxCheck(bool wantOn, string? productVersion) => wantOn
        ? new(RemediationKind.LinuxCheck, "Linux: remove the trace flag that makes the engine zero data files",
        [
            "SQL Server on Linux has no \"Perform volume maintenance tasks\" right: it grows files with fallocate and " +
            "zeroes data files only when trace flag 1805 or 1806 is set.",
            "Find the flag: DBCC TRACESTATUS(-1), and /var/opt/mssql/mssql.conf ([traceflag] section). Remove it with " +
            "sudo /opt/mssql/bin/mssql-conf traceflag 1806 off (or 1805), after asking who set it and why.",
            "In a maintenance window, restart: sudo systemctl restart mssql-server.",
            PrivilegeSteps.Verify(IfiState.Enabled, productVersion),
        ])
        : new(RemediationKind.LinuxCheck, "Linux: IFI exposes no deleted data here; review the rule, or set trace flag 1806",
        [
            ComplianceEvaluator.LinuxForbiddenNote,
            "If the rule stays: sudo /opt/mssql/bin/mssql-conf traceflag 1806 on, then in a maintenance window " +
            "sudo systemctl restart mssql-server; otherwise exempt Linux hosts from the rule or grant a waiver.",
            "Verify: DBCC TRACESTATUS(-1) lists 1806 as Global.",
        ]);

    /// <summary>IFI is known but a rule's selector is not: the fact needs a poll that reads it, or the rule a change.</summary>
    static RemediationPlan PolicyUndecided(PolicyDecision decision) => new(RemediationKind.ReviewPolicy,
        "Policy undecided: a rule's selector could not be evaluated",
        [
            .. decision.Unevaluated.Select(u => $"The {u.Sentence}."),
            "Let a poll read it: the instance page's probe table names the probe that failed and the grant it needs.",
            "Or change the rule on the policy page so that it does not depend on that fact for this instance.",
        ]);

    static RemediationPlan ForUnknown(InstanceFacts instance, string collectorLogin)
    {
        if (instance.Ifi.UnknownReason == UnknownCauses.NotPolledYet)
            return new(RemediationKind.WaitForFirstPoll, "Not polled yet",
                [$"Wait for the first poll (every {instance.PollInterval.TotalMinutes:0} minutes)."]);

        return (instance.IfiUnknownCause ?? UnknownCauses.FromReason(instance.Ifi.UnknownReason)) switch
        {
            OutcomeClass.BuildTooOld => BuildTooOld(instance.MajorVersion, instance.ProductVersion),
            OutcomeClass.PermissionMissing => MissingPermission(instance, collectorLogin),
            OutcomeClass.ErrorLogNotEnglish => ErrorLogNotEnglish(instance.MajorVersion, instance.ProductVersion),
            var cause => Connectivity(cause, instance.Ifi.UnknownReason),
        };
    }

    static RemediationPlan BuildTooOld(int major, string? productVersion)
    {
        var minimum = major switch
        {
            11 => "SQL Server 2012 SP4 (11.0.7001)",
            12 => "SQL Server 2014 SP3 (12.0.6024)",
            13 => "SQL Server 2016 SP1 (13.0.4001)",
            _ => "2012 SP4 (11.0.7001), 2014 SP3 (12.0.6024) or 2016 SP1 (13.0.4001)",
        };
        var patch = $"This build has no instant_file_initialization_enabled column in sys.dm_server_services. Patch to at " +
                    $"least {minimum}.";
        // 2014 SP2 and 2016 RTM write the start-up line; a poll found none (the log was cycled, or no permission to
        // read it). 2012 before SP4 and 2014 before SP2 write none: there only the host can tell.
        return ProductVersions.WritesStartupIfiLine(productVersion)
            ? new(RemediationKind.PatchBuild, "IFI state not found in the error log",
                [patch, $"Until then, the state is the line written at service start: {PrivilegeSteps.StartupLineQuery}; " +
                        "if the current log no longer holds it (cycled since start-up), read the older logs (1, 2, ...)."])
            : new(RemediationKind.PatchBuild, "Build too old to report IFI",
                [patch, "Until then, this build reports IFI neither in the DMV nor in the error log's start-up line. " +
                        PrivilegeSteps.ZeroingTest,
                 "Or on the host: secpol.msc > User Rights Assignment > \"Perform volume maintenance tasks\" shows who " +
                 "holds the right (the engine reads it at start-up)."]);
    }

    /// <summary>A localized SQL Server's translated start-up line is not read: the patch that adds the DMV column tells in any language.</summary>
    static RemediationPlan ErrorLogNotEnglish(int major, string? productVersion)
    {
        var patched = BuildTooOld(major, productVersion);
        return new(RemediationKind.PatchBuild, "IFI state unknown: the error log is not in English",
            [patched.Steps[0], "Until then, the error log's start-up line is in the instance's language, which the collector " +
                               "does not read: read it there yourself, or on the host: secpol.msc > User Rights Assignment > " +
                               "\"Perform volume maintenance tasks\" shows who holds the right (the engine reads it at start-up)."]);
    }

    /// <summary>The grant for the probe that was refused, from the one table of probe permissions.</summary>
    static RemediationPlan MissingPermission(InstanceFacts instance, string login)
    {
        var fromErrorLog = instance.Ifi.UnknownReason == IfiObservation.ErrorLogPermissionMissing;
        var probe = fromErrorLog ? ProbeNames.ErrorLog : ProbeNames.Services;
        var title = fromErrorLog
            ? "The collector's login may not read the error log, where this build reports IFI"
            : "The collector's login may not read sys.dm_server_services";
        return new(RemediationKind.GrantCollectorPermission, title,
            [.. ProbePermissions.GrantStatements(probe, instance.MajorVersion, login),
             "The next poll reads the IFI state; no restart is needed."]);
    }

    static RemediationPlan Connectivity(OutcomeClass? cause, string? reason)
    {
        var step = cause switch
        {
            OutcomeClass.Unreachable => "Check the host name, port, firewall and that the service is running.",
            OutcomeClass.TlsError => "Check the server certificate: trust its issuer on the collector, or set " +
                                     "TrustServerCertificate / a pinned certificate for this instance.",
            OutcomeClass.LoginFailed => "Check the credential name configured for this instance and that the login " +
                                        "exists and is enabled.",
            OutcomeClass.Timeout => "Check the instance's load and the network path; the poll timed out.",
            OutcomeClass.HostNotAllowed => "Add the host to the allow-list of the instance's credential " +
                                           "(Credentials:<name>:AllowedHosts) or Collector:AllowedNetworks on the collector, " +
                                           "or register the instance with the credential meant for it.",
            OutcomeClass.InsecureTransportRefused => "Give the instance a certificate the collector trusts, or pin it, and " +
                                                     "clear TrustServerCertificate; the collector sends no SQL login otherwise.",
            _ => $"Check the collector's last message for this instance ({reason ?? "no reason given"}).",
        };
        return new(RemediationKind.RestoreConnectivity, $"IFI state unknown: {reason ?? "no reason given"}", [step]);
    }

    static RemediationPlan Nothing(string title, string detail) => new(RemediationKind.NothingToDo, title, [detail]);
}
