using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class RemediationAdvisorTests
{
    const string VerifyQuery =
        "SELECT instant_file_initialization_enabled FROM sys.dm_server_services WHERE process_id = SERVERPROPERTY('ProcessID')";

    static readonly PolicyDocument Policy = new()
    {
        Version = 1,
        Rules = [new PolicyRule { Name = "pci", Tags = ["pci"], Desired = DesiredState.Forbidden }],
    };

    static RemediationPlan PlanFor(InstanceFacts instance, string login = "ifi_collector") =>
        RemediationAdvisor.For(instance, ComplianceEvaluator.Evaluate(instance, Policy, Now), login);

    [Fact]
    public void Missing_IFI_gets_grant_restart_verify_naming_the_account()
    {
        var instance = Instance(IfiState.Disabled) with
        {
            EngineServiceAccount = @"NT Service\MSSQL$SALES",
            SqlInstanceName = "SALES",
        };

        var plan = PlanFor(instance);

        Assert.Equal(RemediationKind.GrantPrivilege, plan.Kind);
        Assert.Contains(@"NT Service\MSSQL$SALES", plan.Title);
        Assert.Contains(plan.Steps, s => s.Contains("Perform volume maintenance tasks") && s.Contains("SE_MANAGE_VOLUME_NAME")
                                         && s.Contains(@"add NT Service\MSSQL$SALES"));
        Assert.Contains(plan.Steps, s => s.Contains("Restart-Service -Name 'MSSQL$SALES'") && s.Contains("maintenance window"));
        Assert.Equal($"Verify: {VerifyQuery}; it must return 'Y'.", plan.Steps[^1]);
    }

    // Item 10: the right is local to each node; a failover cluster instance restarts through the cluster.
    [Fact]
    public void A_failover_cluster_instance_is_granted_on_every_node_and_restarted_through_the_cluster()
    {
        var instance = Instance(IfiState.Disabled) with
        {
            EngineServiceAccount = @"NT Service\MSSQL$SALES", SqlInstanceName = "SALES",
            IsClustered = true, ClusterNodes = ["SQLNODE2", "SQLNODE1", "SQLNODE3"],
        };

        var plan = PlanFor(instance);

        Assert.Equal(RemediationKind.GrantPrivilege, plan.Kind);
        Assert.Contains(plan.Steps, s => s.Contains("grant on every possible owner node, SQLNODE2 (the current owner), SQLNODE1, SQLNODE3"));
        var restart = Assert.Single(plan.Steps, s => s.Contains("maintenance window"));
        Assert.Contains("Failover Cluster Manager > Roles > SQL Server (SALES) > Take Offline", restart);
        Assert.Contains("Move-ClusterGroup", restart);
        Assert.DoesNotContain("Restart-Service", restart);
        Assert.DoesNotContain(plan.Steps, s => s.Contains("Restart-Service"));
    }

    [Fact]
    public void A_cluster_whose_nodes_could_not_be_read_says_where_to_list_them_and_what_the_collector_lacks()
    {
        var revoke = PlanFor(Instance(IfiState.Enabled, major: 16, tags: ["pci"]) with { IsClustered = true, ClusterNodes = null });

        Assert.Equal(RemediationKind.RevokePrivilege, revoke.Kind);
        Assert.Contains(revoke.Steps, s => s.Contains("remove it on every possible owner node")
                                           && s.Contains("sys.dm_os_cluster_nodes") && s.Contains("VIEW SERVER PERFORMANCE STATE"));
        Assert.Contains(revoke.Steps, s => s.Contains("Stop-ClusterGroup -Name 'SQL Server (MSSQLSERVER)'"));
    }

    [Fact]
    public void A_standalone_instance_gets_no_cluster_steps() =>
        Assert.DoesNotContain(PlanFor(Instance(IfiState.Disabled)).Steps, s => s.Contains("cluster", StringComparison.OrdinalIgnoreCase));

    [Fact]
    public void Forbidden_IFI_gets_revoke_and_a_warning_about_administrators()
    {
        var instance = Instance(IfiState.Enabled, tags: ["pci"]) with { EngineServiceAccount = @"CORP\svc-sql" };

        var plan = PlanFor(instance);

        Assert.Equal(RemediationKind.RevokePrivilege, plan.Kind);
        Assert.Contains(plan.Steps, s => s.Contains("local Administrators"));
        Assert.EndsWith("it must return 'N'.", plan.Steps[^1]);
    }

    // Setup and dbatools' Set-DbaPrivilege grant the right to the per-service SID: removing only the start account
    // leaves IFI on.
    [Fact]
    public void Revoke_names_both_the_start_account_and_the_service_sid()
    {
        var plan = PlanFor(Instance(IfiState.Enabled, tags: ["pci"]) with { EngineServiceAccount = @"CORP\svc-sql", SqlInstanceName = "SALES" });

        Assert.Contains(@"NT Service\MSSQL$SALES", plan.Title);
        Assert.Contains(@"CORP\svc-sql", plan.Title);
        Assert.Contains(plan.Steps, s => s.Contains(@"remove both NT Service\MSSQL$SALES and CORP\svc-sql"));
    }

    [Fact]
    public void Grant_to_a_domain_account_names_the_service_sid_first()
    {
        var plan = PlanFor(Instance(IfiState.Disabled) with { EngineServiceAccount = @"CORP\svc-sql" });

        Assert.StartsWith(@"Grant ""Perform volume maintenance tasks"" to NT Service\MSSQLSERVER (or CORP\svc-sql)", plan.Title);
        Assert.Contains(plan.Steps, s => s.Contains(@"add NT Service\MSSQLSERVER, the service's own SID"));
    }

    // LocalSystem holds the right already and controls the host: granting it to LocalSystem is no advice.
    [Theory]
    [InlineData(IfiState.Disabled, null, RemediationKind.GrantPrivilege)]
    [InlineData(IfiState.Enabled, "pci", RemediationKind.RevokePrivilege)]
    public void LocalSystem_is_moved_to_the_virtual_account(IfiState ifi, string? tag, RemediationKind kind)
    {
        var plan = PlanFor(Instance(ifi, tags: tag is null ? null : [tag]) with { EngineServiceAccount = "LocalSystem" });

        Assert.Equal(kind, plan.Kind);
        Assert.StartsWith(@"Move the engine from LocalSystem", plan.Title);
        Assert.Contains(@"NT Service\MSSQLSERVER", plan.Title);
        // The move comes before any step that touches the right.
        var move = plan.Steps.ToList().FindIndex(s => s.Contains("Configuration Manager"));
        Assert.InRange(move, 0, 1);
        Assert.DoesNotContain(plan.Steps.Take(move), s => s.Contains("secedit") || s.Contains("secpol"));
        Assert.DoesNotContain(plan.Steps, s => s.Contains("add LocalSystem") || s.Contains("to LocalSystem."));
    }

    // LocalSystem's token holds SE_MANAGE_VOLUME_NAME: 'N' there contradicts "grant the right", and the advice says so
    // before anything else (issue 29: 7 demo instances showed LocalSystem with 'N' and plain grant advice).
    [Fact]
    public void LocalSystem_without_ifi_is_explained_as_an_override_not_a_missing_right()
    {
        var plan = PlanFor(Instance(IfiState.Disabled) with { EngineServiceAccount = "LocalSystem" });

        Assert.Equal(RemediationAdvisor.LocalSystemWithoutIfi, plan.Steps[0]);
        Assert.Contains("1805", plan.Steps[0]);
        Assert.Contains("1806", plan.Steps[0]);
    }

    [Fact]
    public void LocalSystem_with_ifi_where_forbidden_needs_no_override_explanation()
    {
        var plan = PlanFor(Instance(IfiState.Enabled, tags: ["pci"]) with { EngineServiceAccount = "LocalSystem" });

        Assert.DoesNotContain(RemediationAdvisor.LocalSystemWithoutIfi, plan.Steps);
    }

    [Fact]
    public void Default_instance_without_virtual_account_restarts_MSSQLSERVER()
    {
        var plan = PlanFor(Instance(IfiState.Disabled) with { EngineServiceAccount = @"CORP\svc-sql" });

        Assert.Contains(plan.Steps, s => s.Contains("Restart-Service -Name 'MSSQLSERVER'"));
    }

    [Fact]
    public void Waived_instance_gets_the_same_steps_for_when_the_waiver_ends()
    {
        var instance = Instance(IfiState.Disabled);
        var policy = Policy with
        {
            Waivers = [new Waiver { InstanceId = 1, Reason = "r", Author = "a", GrantedAt = Now.AddDays(-1),
                ExpiresAt = new DateTimeOffset(2025, 6, 1, 0, 0, 0, TimeSpan.Zero) }],
        };

        var plan = RemediationAdvisor.For(instance, ComplianceEvaluator.Evaluate(instance, policy, Now));

        Assert.Equal(RemediationKind.GrantPrivilege, plan.Kind);
        Assert.StartsWith("Waived until 2025-06-01 00:00 +00:00", plan.Title);
        Assert.Contains(plan.Steps, s => s.Contains("Perform volume maintenance tasks"));
    }

    // The start-up line exists from 2012 SP4, 2014 SP2 and 2016 RTM; before those only the host can tell.
    [Theory]
    [InlineData("11.0.6020.0", "2012 SP4 (11.0.7001)", false)]
    [InlineData("12.0.4100.1", "2014 SP3 (12.0.6024)", false)]
    [InlineData("12.0.5000.0", "2014 SP3 (12.0.6024)", true)]
    [InlineData("13.0.1601.5", "2016 SP1 (13.0.4001)", true)]
    public void Build_too_old_names_the_minimum_patch_and_the_source_that_build_has(string version, string minimum, bool writesStartupLine)
    {
        var instance = Instance(IfiState.Unknown, major: ProductVersions.Major(version), unknownReason: "build too old", productVersion: version);

        var plan = PlanFor(instance);

        Assert.Equal(RemediationKind.PatchBuild, plan.Kind);
        Assert.Contains(plan.Steps, s => s.Contains(minimum));
        Assert.Equal(writesStartupLine, plan.Steps.Any(s => s.Contains("sp_readerrorlog") && s.Contains("Database Instant File Initialization")));
        Assert.Equal(!writesStartupLine, plan.Steps.Any(s => s.Contains("secpol.msc")));
    }

    // A localized SQL Server's start-up line is translated (sqlserver-reference.md section 2): the advice is the patch
    // that adds the DMV column, never an English sp_readerrorlog search that finds nothing there.
    [Fact]
    public void Error_log_not_in_english_advises_the_patch_and_the_host_not_the_english_search()
    {
        var instance = Instance(IfiState.Unknown, major: 13, unknownReason: "error log not in English", productVersion: "13.0.1601.5");

        var plan = PlanFor(instance);

        Assert.Equal((RemediationKind.PatchBuild, "IFI state unknown: the error log is not in English"), (plan.Kind, plan.Title));
        Assert.Contains(plan.Steps, s => s.Contains("2016 SP1 (13.0.4001)"));
        Assert.Contains(plan.Steps, s => s.Contains("secpol.msc"));
        Assert.DoesNotContain(plan.Steps, s => s.Contains("sp_readerrorlog"));
    }

    // Microsoft's IFI page: builds without the DMV column are checked through the start-up line; advice must never
    // send them to a column they lack (Msg 207).
    [Theory]
    [InlineData("12.0.5000.0", IfiState.Enabled, "enabled")]
    [InlineData("13.0.1601.5", IfiState.Disabled, "disabled")]
    public void Builds_without_the_dmv_column_are_verified_through_the_startup_line(string version, IfiState state, string word)
    {
        var desired = state == IfiState.Enabled ? Instance(state, productVersion: version) : Instance(state, tags: ["pci"], productVersion: version);
        var compliant = PlanFor(desired);
        var deviating = PlanFor(state == IfiState.Enabled ? Instance(IfiState.Disabled, productVersion: version) : Instance(IfiState.Enabled, tags: ["pci"], productVersion: version));

        foreach (var step in new[] { compliant.Steps[^1], deviating.Steps[^1] })
        {
            Assert.DoesNotContain("instant_file_initialization_enabled", step);
            Assert.Contains("sp_readerrorlog", step);
        }
        Assert.Contains($"'{word}'", compliant.Steps[^1]);
    }

    [Theory]
    [InlineData(15, "GRANT VIEW SERVER STATE TO [ifi_collector]", "SECURITY")]
    [InlineData(13, "GRANT VIEW SERVER STATE TO [ifi_collector]", "SECURITY")]
    [InlineData(16, "GRANT VIEW SERVER SECURITY STATE TO [ifi_collector]", "GRANT VIEW SERVER STATE ")]
    [InlineData(17, "GRANT VIEW SERVER SECURITY STATE TO [ifi_collector]", "GRANT VIEW SERVER STATE ")]
    public void Missing_permission_gets_the_grant_for_its_version(int major, string grant, string absent)
    {
        var instance = Instance(IfiState.Unknown, major: major) with
        {
            Ifi = new IfiObservation(IfiState.Unknown, "permission missing"),
            IfiUnknownCause = OutcomeClass.PermissionMissing,
        };

        var plan = PlanFor(instance);

        Assert.Equal(RemediationKind.GrantCollectorPermission, plan.Kind);
        Assert.Contains(plan.Steps, s => s.Contains(grant));
        Assert.DoesNotContain(plan.Steps, s => s.Contains(absent));
    }

    [Theory]
    [InlineData("12.0.5000.0", "GRANT EXECUTE ON sys.xp_readerrorlog TO [ifi_collector]")]
    [InlineData("16.0.1000.6", "GRANT VIEW ANY ERROR LOG TO [ifi_collector]")]
    public void Refused_error_log_gets_the_error_log_grant_not_the_services_one(string version, string grant)
    {
        var instance = Instance(IfiState.Unknown, major: ProductVersions.Major(version), productVersion: version,
            unknownReason: IfiObservation.ErrorLogPermissionMissing);

        var plan = PlanFor(instance);

        Assert.Equal(RemediationKind.GrantCollectorPermission, plan.Kind);
        Assert.Contains(plan.Steps, s => s.Contains(grant));
        Assert.DoesNotContain(plan.Steps.Append(plan.Title), s => s.Contains("SERVER STATE") || s.Contains("dm_server_services"));
    }

    [Theory]
    [InlineData(ProbeNames.DefaultTrace, 15, "ALTER TRACE")]
    [InlineData(ProbeNames.GrowthEvents, 16, "ALTER TRACE")]
    [InlineData(ProbeNames.Files, 16, "VIEW ANY DEFINITION")]
    [InlineData(ProbeNames.Services, 15, "VIEW SERVER STATE")]
    [InlineData(ProbeNames.Services, 16, "VIEW SERVER SECURITY STATE")]
    [InlineData(ProbeNames.ErrorLog, 16, "VIEW ANY ERROR LOG")]
    public void Each_probe_has_one_permission_per_version_and_its_grant_names_it(string probe, int major, string permission)
    {
        Assert.Equal(permission, ProbePermissions.For(probe, major));
        Assert.Contains(ProbePermissions.GrantStatements(probe, major, "ifi_collector"), s => s.Contains($"GRANT {permission} TO [ifi_collector]"));
    }

    [Fact]
    public void Unknown_version_gets_both_grants() =>
        Assert.Equal(2, PlanFor(Instance(IfiState.Unknown, major: 0, unknownReason: "permission missing"))
            .Steps.Count(s => s.StartsWith("USE master; GRANT")));

    [Theory]
    [InlineData("unreachable", "firewall")]
    [InlineData("TLS / certificate", "certificate")]
    [InlineData("login failed", "credential")]
    public void Connection_failures_point_at_the_connection(string reason, string hint)
    {
        var plan = PlanFor(Instance(IfiState.Unknown, unknownReason: reason));

        Assert.Equal(RemediationKind.RestoreConnectivity, plan.Kind);
        Assert.Contains(hint, plan.Steps.Single());
    }

    [Fact]
    public void Never_polled_instance_waits_for_its_first_poll() =>
        Assert.Equal(RemediationKind.WaitForFirstPoll, PlanFor(Instance(IfiState.Unknown, unknownReason: "not polled yet")).Kind);

    [Fact]
    public void Linux_gets_no_Windows_secpol_steps()
    {
        var plan = PlanFor(Instance(IfiState.Disabled, platform: HostPlatform.Linux));

        Assert.Equal(RemediationKind.LinuxCheck, plan.Kind);
        Assert.DoesNotContain(plan.Steps, s => s.Contains("secpol.msc"));
        Assert.Contains(plan.Steps, s => s.Contains("mssql-conf traceflag 1806 off"));
        Assert.Contains(plan.Steps, s => s.Contains("systemctl restart mssql-server"));
        Assert.DoesNotContain(plan.Steps, s => s.Contains("unconfirmed"));
    }

    [Fact]
    public void Linux_under_a_forbidding_rule_is_told_the_rule_protects_nothing_there_and_how_to_zero_anyway()
    {
        var plan = PlanFor(Instance(IfiState.Enabled, platform: HostPlatform.Linux, tags: ["pci"]));

        Assert.Equal(RemediationKind.LinuxCheck, plan.Kind);
        Assert.Contains("review the rule", plan.Title);
        Assert.Contains(plan.Steps, s => s.Contains("mssql-conf traceflag 1806 on"));
        Assert.DoesNotContain(plan.Steps, s => s.Contains("unconfirmed"));
    }

    [Theory]
    [InlineData(IfiState.Enabled, 3, RemediationKind.NothingToDo)]
    [InlineData(IfiState.Disabled, 5, RemediationKind.NothingToDo)]
    public void Compliant_and_not_applicable_need_nothing(IfiState ifi, int edition, RemediationKind kind) =>
        Assert.Equal(kind, PlanFor(Instance(ifi, engineEdition: edition)).Kind);

    [Fact]
    public void TDE_database_is_told_IFI_cannot_help()
    {
        var plan = RemediationAdvisor.ForTdeDatabase("Payroll");

        Assert.Equal(RemediationKind.TdeDatabase, plan.Kind);
        Assert.Contains("IFI cannot help", plan.Title);
        Assert.Contains("Payroll", plan.Steps[0]);
    }
}
