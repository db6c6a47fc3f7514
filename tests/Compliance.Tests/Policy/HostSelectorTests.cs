using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

/// <summary>Rules that select by what a host is (docs/compliance.md, "Selecting by what a host is").</summary>
public class HostSelectorTests
{
    static PolicyDocument Rules(params PolicyRule[] rules) => new() { Version = 2, Rules = rules };

    static PolicyRule Forbid(string name = "selected") => new() { Name = name, Desired = DesiredState.Forbidden };

    static AvailabilityGroupInfo Group(string role) => new()
    {
        GroupId = Guid.Parse("5f1c0a4e-0000-4000-8000-000000000001"), Name = "payments", LocalRole = role,
        Replicas = ["SQL1", "SQL2"],
    };

    [Theory]
    [InlineData(HostPlatform.Linux, 3, PolicyPlatform.Linux, true)]
    [InlineData(HostPlatform.Windows, 3, PolicyPlatform.Linux, false)]
    [InlineData(HostPlatform.Windows, 3, PolicyPlatform.Windows, true)]
    [InlineData(HostPlatform.Linux, 3, PolicyPlatform.Windows, false)]
    public void Platform_selector_matches_the_host_platform_the_poll_read(HostPlatform platform, int engineEdition,
        PolicyPlatform selected, bool matches)
    {
        var decision = PolicyEvaluator.Decide(Rules(Forbid() with { Platforms = [selected] }),
            Instance(platform: platform, engineEdition: engineEdition));

        Assert.Equal(matches ? DesiredState.Forbidden : DesiredState.Required, decision.Desired);
        Assert.Equal(matches ? PolicySource.Rule : PolicySource.Default, decision.Source);
        Assert.Empty(decision.Unevaluated);
    }

    [Theory]
    [InlineData(16, "2022", true)]
    [InlineData(15, "2022", false)]
    [InlineData(13, "2016-2019", true)]
    [InlineData(15, "2016-2019", true)]
    [InlineData(16, "2016-2019", false)]
    [InlineData(17, "2022+", true)]
    [InlineData(14, "2022+", false)]
    public void Version_selector_matches_releases_ranges_and_later(int major, string range, bool matches)
    {
        var decision = PolicyEvaluator.Decide(Rules(Forbid() with { Versions = [range] }), Instance(major: major));

        Assert.Equal(matches ? DesiredState.Forbidden : DesiredState.Required, decision.Desired);
    }

    [Theory]
    [InlineData("Enterprise Edition: Core-based Licensing (64-bit)", SqlEdition.Enterprise, true)]
    [InlineData("Enterprise Evaluation Edition (64-bit)", SqlEdition.Enterprise, false)]
    [InlineData("Enterprise Evaluation Edition (64-bit)", SqlEdition.Evaluation, true)]
    [InlineData("Developer Edition (64-bit)", SqlEdition.Developer, true)]
    [InlineData("Express Edition with Advanced Services (64-bit)", SqlEdition.Express, true)]
    [InlineData("Standard Edition (64-bit)", SqlEdition.Enterprise, false)]
    public void Edition_selector_reads_SERVERPROPERTY_Edition(string edition, SqlEdition selected, bool matches)
    {
        var decision = PolicyEvaluator.Decide(Rules(Forbid() with { Editions = [selected] }), Instance() with { Edition = edition });

        Assert.Equal(matches ? DesiredState.Forbidden : DesiredState.Required, decision.Desired);
    }

    [Theory]
    [InlineData(false, null, ClusterMembership.Standalone, true)]
    [InlineData(true, null, ClusterMembership.Standalone, false)]
    [InlineData(false, "SECONDARY", ClusterMembership.Standalone, false)]
    [InlineData(true, null, ClusterMembership.FailoverCluster, true)]
    [InlineData(false, "PRIMARY", ClusterMembership.AvailabilityGroupReplica, true)]
    [InlineData(false, "PRIMARY", ClusterMembership.AvailabilityGroupPrimary, true)]
    [InlineData(false, "PRIMARY", ClusterMembership.AvailabilityGroupSecondary, false)]
    [InlineData(false, "SECONDARY", ClusterMembership.AvailabilityGroupSecondary, true)]
    public void Cluster_selector_reads_the_FCI_flag_and_the_availability_group_roles(bool clustered, string? role,
        ClusterMembership selected, bool matches)
    {
        var instance = Instance() with { IsClustered = clustered, AvailabilityGroups = role is null ? [] : [Group(role)] };

        var decision = PolicyEvaluator.Decide(Rules(Forbid() with { Clusters = [selected] }), instance);

        Assert.Equal(matches ? DesiredState.Forbidden : DesiredState.Required, decision.Desired);
    }

    [Fact]
    public void Every_selector_must_match_and_any_value_of_one_selector_does()
    {
        var rule = Forbid() with { Platforms = [PolicyPlatform.Linux, PolicyPlatform.Windows], Versions = ["2019", "2022"], Tags = ["pci"] };

        Assert.Equal(DesiredState.Forbidden, PolicyEvaluator.Decide(Rules(rule), Instance(major: 15, tags: ["pci"])).Desired);
        Assert.Equal(DesiredState.Required, PolicyEvaluator.Decide(Rules(rule), Instance(major: 14, tags: ["pci"])).Desired);
        Assert.Equal(DesiredState.Required, PolicyEvaluator.Decide(Rules(rule), Instance(major: 15)).Desired);
    }

    [Fact]
    public void A_platform_selector_never_brings_Azure_back_under_a_rule()
    {
        var decision = PolicyEvaluator.Decide(Rules(Forbid() with { Platforms = [PolicyPlatform.AzureSqlDatabase] }),
            Instance(engineEdition: 5));

        Assert.Equal((DesiredState.NotApplicable, PolicySource.Platform), (decision.Desired, decision.Source));
    }

    [Fact]
    public void A_selector_no_poll_has_read_makes_the_status_Unknown_and_names_the_rule_when_it_would_decide_otherwise()
    {
        // Known IFI (the services probe read it) but the availability-groups probe was refused.
        var instance = Instance(IfiState.Enabled) with { AvailabilityGroupsUnknownReason = "permission missing" };
        var policy = Rules(Forbid("AG secondaries zero") with { Clusters = [ClusterMembership.AvailabilityGroupSecondary] });

        var result = ComplianceEvaluator.Evaluate(instance, policy, Now);

        Assert.Equal(ComplianceStatus.Unknown, result.Status);
        Assert.Equal(PolicySource.Undecided, result.Policy.Source);
        Assert.Equal("Policy undecided: policy 'AG secondaries zero' selects by cluster, which is unknown " +
                     "(availability groups not read: permission missing)", result.Explanation);
        Assert.Equal(result.Explanation, result.UnknownReason);
        Assert.Equal(RemediationKind.ReviewPolicy, RemediationAdvisor.For(instance, result).Kind);
    }

    [Fact]
    public void An_unevaluated_rule_that_would_decide_the_same_leaves_the_status_and_says_so()
    {
        var instance = Instance(IfiState.Enabled) with { AvailabilityGroupsUnknownReason = "permission missing" };
        var policy = Rules(
            new PolicyRule { Name = "AG replicas need IFI", Desired = DesiredState.Required, Clusters = [ClusterMembership.AvailabilityGroupReplica] },
            new PolicyRule { Name = "prod", Desired = DesiredState.Required, Environment = "Production" });

        var result = ComplianceEvaluator.Evaluate(instance, policy, Now);

        Assert.Equal(ComplianceStatus.Compliant, result.Status);
        Assert.Equal("prod", result.Policy.RuleName);
        Assert.Contains(result.Notes, n => n.StartsWith("Not evaluated: policy 'AG replicas need IFI' selects by cluster", StringComparison.Ordinal));
    }

    [Fact]
    public void A_known_criterion_that_does_not_match_rules_a_rule_out_whatever_is_unknown()
    {
        var instance = Instance(IfiState.Enabled, environment: "Test") with { AvailabilityGroupsUnknownReason = "timeout" };
        var policy = Rules(Forbid() with { Environment = "Production", Clusters = [ClusterMembership.AvailabilityGroupSecondary] });

        var decision = PolicyEvaluator.Decide(policy, instance);

        Assert.Equal((DesiredState.Required, PolicySource.Default), (decision.Desired, decision.Source));
        Assert.Empty(decision.Unevaluated);
    }

    [Fact]
    public void An_instance_never_polled_has_no_platform_version_or_edition_and_keeps_its_own_unknown_reason()
    {
        var never = Instance(IfiState.Unknown, unknownReason: UnknownCauses.NotPolledYet) with
        {
            ProductVersion = null, MajorVersion = 0, EngineEdition = null, Platform = HostPlatform.Unknown, Edition = null,
        };
        foreach (var rule in new[]
                 {
                     Forbid() with { Platforms = [PolicyPlatform.Linux] }, Forbid() with { Versions = ["2019+"] },
                     Forbid() with { Editions = [SqlEdition.Express] }, Forbid() with { Clusters = [ClusterMembership.Standalone] },
                 })
        {
            var result = ComplianceEvaluator.Evaluate(never, Rules(rule), Now);

            Assert.Equal(ComplianceStatus.Unknown, result.Status);
            Assert.Equal(PolicySource.Undecided, result.Policy.Source);
            Assert.Equal(UnknownCauses.NotPolledYet, result.UnknownReason);
            Assert.Contains(result.Notes, n => n.Contains("no good poll has read the instance's identity yet", StringComparison.Ordinal));
        }
    }

    [Fact]
    public void A_failover_cluster_instance_is_not_standalone_even_when_its_groups_are_unread()
    {
        var instance = Instance() with { IsClustered = true, AvailabilityGroupsUnknownReason = "permission missing" };

        var decision = PolicyEvaluator.Decide(Rules(Forbid() with { Clusters = [ClusterMembership.Standalone] }), instance);

        Assert.Equal((DesiredState.Required, PolicySource.Default), (decision.Desired, decision.Source));
    }

    [Theory]
    [InlineData("Linux, azure sql database", null)]
    [InlineData("Solaris", "'Solaris' is not one of Windows, Linux, AzureSqlDatabase, AzureSqlManagedInstance.")]
    [InlineData("1", "'1' is not one of Windows, Linux, AzureSqlDatabase, AzureSqlManagedInstance.")]
    public void Platform_values_are_checked_by_one_rule_set(string text, string? error)
    {
        var values = HostSelectors.ParseList<PolicyPlatform>(text, out var message);

        Assert.Equal(error, message);
        if (error is null) Assert.Equal([PolicyPlatform.Linux, PolicyPlatform.AzureSqlDatabase], values);
    }

    [Theory]
    [InlineData("2016, 2019 - 2022,2025+", "2016|2019-2022|2025+")]
    [InlineData("2018", null)]
    [InlineData("2022-2016", null)]
    [InlineData("sixteen", null)]
    public void Version_ranges_are_checked_and_normalized(string text, string? normalized)
    {
        var values = HostSelectors.ParseVersions(text, out var message);

        if (normalized is null)
            Assert.StartsWith($"'{text.Split(',')[0].Trim()}' is not a release", message);
        else
            Assert.Equal(normalized, string.Join('|', values!));
    }

    [Fact]
    public void A_rule_cannot_require_or_forbid_IFI_on_Azure()
    {
        Assert.NotNull(HostSelectors.AzureRefusal(DesiredState.Forbidden, [PolicyPlatform.AzureSqlManagedInstance]));
        Assert.Null(HostSelectors.AzureRefusal(DesiredState.NotApplicable, [PolicyPlatform.AzureSqlManagedInstance]));
        Assert.Null(HostSelectors.AzureRefusal(DesiredState.Forbidden, [PolicyPlatform.Linux]));
    }
}
