using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

/// <summary>
/// The remediation plan is derived from the assessment when asked, not held in it: every instance's plan text lived in
/// each fleet assessment, twice while a build replaced the one in use (docs/benchmarks.md, issue 33).
/// </summary>
public class AssessedRemediationTests
{
    [Fact]
    public void An_assessment_derives_the_advisors_plan_on_each_read_and_keeps_none()
    {
        var instance = Instance(IfiState.Disabled) with { EngineServiceAccount = @"NT Service\MSSQL$SALES", SqlInstanceName = "SALES" };
        var state = new InstanceState(instance.ProductVersion, "RTM", null, "Enterprise Edition", "Windows",
            instance.EngineServiceAccount, IfiState.Disabled, null, Now.AddMinutes(-2), Now.AddMinutes(-2), OutcomeClass.Ok, null);
        var policy = new PolicyDocument { Version = 1 };

        var (assessment, _, _) = InstanceAssessor.Assess(state, new InstanceFactSet { Instance = instance }, policy,
            new ZeroingRateOptions(), Now, "ifi_collector");
        var first = assessment.Remediation;
        var second = assessment.Remediation;

        Assert.NotSame(first, second);
        var advised = RemediationAdvisor.For(assessment.Facts, ComplianceEvaluator.Evaluate(assessment.Facts, policy, Now), "ifi_collector");
        foreach (var plan in new[] { first, second })
        {
            Assert.Equal(RemediationKind.GrantPrivilege, plan.Kind);
            Assert.Equal(advised.Title, plan.Title);
            Assert.Equal(advised.Steps, plan.Steps);
            Assert.Equivalent(advised.Change, plan.Change, strict: true);
        }
        Assert.Contains(@"NT Service\MSSQL$SALES", first.Title, StringComparison.Ordinal);
    }
}
