using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class ComplianceEvaluatorTests
{
    static readonly PolicyDocument Policy = new()
    {
        Version = 3,
        Rules =
        [
            new PolicyRule { Name = "pci", Tags = ["pci"], Desired = DesiredState.Forbidden },
            new PolicyRule { Name = "prod", Environment = "Production", Desired = DesiredState.Required },
        ],
    };

    static Waiver WaiverFor(long instanceId, DateTimeOffset expiresAt) => new()
    {
        InstanceId = instanceId,
        Reason = "migration to new SAN",
        Author = "alice",
        GrantedAt = Now.AddDays(-7),
        ExpiresAt = expiresAt,
    };

    [Theory]
    [InlineData(DesiredState.Required, IfiState.Enabled, ComplianceStatus.Compliant)]
    [InlineData(DesiredState.Required, IfiState.Disabled, ComplianceStatus.NonCompliant)]
    [InlineData(DesiredState.Forbidden, IfiState.Enabled, ComplianceStatus.NonCompliant)]
    [InlineData(DesiredState.Forbidden, IfiState.Disabled, ComplianceStatus.Compliant)]
    [InlineData(DesiredState.Required, IfiState.Unknown, ComplianceStatus.Unknown)]
    [InlineData(DesiredState.Forbidden, IfiState.Unknown, ComplianceStatus.Unknown)]
    [InlineData(DesiredState.NotApplicable, IfiState.Enabled, ComplianceStatus.NotApplicable)]
    [InlineData(DesiredState.NotApplicable, IfiState.Unknown, ComplianceStatus.NotApplicable)]
    public void Status_follows_desired_and_observed_state_without_waiver(DesiredState desired, IfiState observed,
        ComplianceStatus expected) =>
        Assert.Equal(expected, ComplianceEvaluator.Judge(desired, observed, activeWaiver: null));

    [Theory]
    [InlineData(DesiredState.Required, IfiState.Disabled, ComplianceStatus.Waived)]
    [InlineData(DesiredState.Forbidden, IfiState.Enabled, ComplianceStatus.Waived)]
    [InlineData(DesiredState.Required, IfiState.Enabled, ComplianceStatus.Compliant)]
    [InlineData(DesiredState.Required, IfiState.Unknown, ComplianceStatus.Unknown)]
    [InlineData(DesiredState.NotApplicable, IfiState.Disabled, ComplianceStatus.NotApplicable)]
    public void Active_waiver_turns_only_non_compliance_into_waived(DesiredState desired, IfiState observed,
        ComplianceStatus expected) =>
        Assert.Equal(expected, ComplianceEvaluator.Judge(desired, observed, WaiverFor(1, Now.AddDays(1))));

    [Fact]
    public void Required_instance_without_IFI_is_explained_by_its_rule()
    {
        var result = ComplianceEvaluator.Evaluate(Instance(IfiState.Disabled), Policy, Now);

        Assert.Equal(ComplianceStatus.NonCompliant, result.Status);
        Assert.Equal("IFI is off but policy 'prod' requires it", result.Explanation);
        Assert.Equal(3, result.PolicyVersion);
    }

    [Fact]
    public void Forbidden_instance_with_IFI_on_is_non_compliant()
    {
        var result = ComplianceEvaluator.Evaluate(Instance(IfiState.Enabled, tags: ["pci"]), Policy, Now);

        Assert.Equal(ComplianceStatus.NonCompliant, result.Status);
        Assert.Equal("IFI is on but policy 'pci' forbids it", result.Explanation);
    }

    [Fact]
    public void Compliance_under_the_default_policy_says_so()
    {
        var result = ComplianceEvaluator.Evaluate(Instance(IfiState.Enabled, environment: "Dev"), Policy, Now);

        Assert.Equal(ComplianceStatus.Compliant, result.Status);
        Assert.Equal("IFI is on, as the default policy requires", result.Explanation);
    }

    [Fact]
    public void Waiver_expiring_exactly_now_no_longer_waives()
    {
        var policy = Policy with { Waivers = [WaiverFor(1, Now)] };

        var result = ComplianceEvaluator.Evaluate(Instance(IfiState.Disabled), policy, Now);

        Assert.Equal(ComplianceStatus.NonCompliant, result.Status);
        Assert.Null(result.Waiver);
    }

    [Fact]
    public void Waived_status_names_the_author_expiry_and_reason()
    {
        var policy = Policy with { Waivers = [WaiverFor(1, new DateTimeOffset(2025, 6, 1, 0, 0, 0, TimeSpan.Zero))] };

        var result = ComplianceEvaluator.Evaluate(Instance(IfiState.Disabled), policy, Now);

        Assert.Equal(ComplianceStatus.Waived, result.Status);
        Assert.Equal("IFI is off but policy 'prod' requires it; waived by alice until 2025-06-01 00:00 +00:00: " +
                     "migration to new SAN", result.Explanation);
    }

    [Fact]
    public void Unknown_observation_keeps_its_reason_and_is_not_waived()
    {
        var policy = Policy with { Waivers = [WaiverFor(1, Now.AddDays(3))] };
        var instance = Instance(IfiState.Unknown, unknownReason: "permission missing");

        var result = ComplianceEvaluator.Evaluate(instance, policy, Now);

        Assert.Equal(ComplianceStatus.Unknown, result.Status);
        Assert.Equal("permission missing", result.UnknownReason);
        Assert.Equal("IFI state unknown (permission missing)", result.Explanation);
        Assert.False(result.CountsAsCompliant);
        Assert.Contains(result.Notes, n => n.Contains("cannot cover a state nobody has seen"));
    }

    [Theory]
    [InlineData(5, "Azure SQL Database: IFI cannot be configured")]
    [InlineData(8, "Azure SQL Managed Instance: IFI cannot be configured")]
    public void Azure_platforms_are_not_applicable_even_when_IFI_reads_off(int engineEdition, string explanation)
    {
        var result = ComplianceEvaluator.Evaluate(Instance(IfiState.Disabled, engineEdition: engineEdition), Policy, Now);

        Assert.Equal(ComplianceStatus.NotApplicable, result.Status);
        Assert.Equal(explanation, result.Explanation);
    }

    [Fact]
    public void Linux_follows_the_DMV_but_carries_the_fallocate_note()
    {
        var result = ComplianceEvaluator.Evaluate(Instance(IfiState.Disabled, platform: HostPlatform.Linux), Policy, Now);

        Assert.Equal(ComplianceStatus.NonCompliant, result.Status);
        Assert.Contains(ComplianceEvaluator.LinuxAllocationNote, result.Notes);
    }

    // Item 20: the note rests on a named Microsoft source, never "community source, unconfirmed".
    [Fact]
    public void The_Linux_note_says_what_is_documented_and_claims_nothing_unconfirmed()
    {
        Assert.DoesNotContain("unconfirmed", ComplianceEvaluator.LinuxAllocationNote, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("community", ComplianceEvaluator.LinuxAllocationNote, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("reads back as zeros", ComplianceEvaluator.LinuxAllocationNote, StringComparison.Ordinal);
    }

    [Fact]
    public void A_rule_forbidding_IFI_on_a_Linux_host_is_warned_about()
    {
        var linux = ComplianceEvaluator.Evaluate(Instance(IfiState.Enabled, platform: HostPlatform.Linux, tags: ["pci"]), Policy, Now);
        var windows = ComplianceEvaluator.Evaluate(Instance(IfiState.Enabled, tags: ["pci"]), Policy, Now);
        var requiredOnLinux = ComplianceEvaluator.Evaluate(Instance(IfiState.Enabled, platform: HostPlatform.Linux), Policy, Now);

        Assert.Equal(ComplianceStatus.NonCompliant, linux.Status);
        Assert.Contains(ComplianceEvaluator.LinuxForbiddenNote, linux.Notes);
        Assert.DoesNotContain(ComplianceEvaluator.LinuxForbiddenNote, windows.Notes);
        Assert.DoesNotContain(ComplianceEvaluator.LinuxForbiddenNote, requiredOnLinux.Notes);
    }

    [Fact]
    public void Windows_instance_gets_no_Linux_note()
    {
        var result = ComplianceEvaluator.Evaluate(Instance(IfiState.Disabled), Policy, Now);

        Assert.DoesNotContain(ComplianceEvaluator.LinuxAllocationNote, result.Notes);
    }

    [Fact]
    public void Status_older_than_three_poll_intervals_is_stale_but_keeps_its_verdict()
    {
        var instance = Instance(IfiState.Enabled) with { LastGoodPollAt = Now.AddMinutes(-16) };

        var result = ComplianceEvaluator.Evaluate(instance, Policy, Now);

        Assert.Equal(ComplianceStatus.Compliant, result.Status);
        Assert.True(result.IsStale);
        Assert.Contains(result.Notes, n => n.Contains("may be out of date"));
    }
}
