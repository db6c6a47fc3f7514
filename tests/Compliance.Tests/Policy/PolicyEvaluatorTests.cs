using IfiDashboard.Compliance.Policy;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class PolicyEvaluatorTests
{
    static readonly PolicyDocument Policy = new()
    {
        Version = 7,
        Rules =
        [
            new PolicyRule { Name = "pci", Tags = ["pci"], Desired = DesiredState.Forbidden },
            new PolicyRule { Name = "lab", Environment = "Lab", Desired = DesiredState.NotApplicable },
            new PolicyRule { Name = "finance-prod", Environment = "Production", Owner = "finance", Tags = ["tier1"],
                Desired = DesiredState.Forbidden },
            new PolicyRule { Name = "prod", Environment = "Production", Desired = DesiredState.Required },
        ],
    };

    [Theory]
    [InlineData("Production", new[] { "pci", "tier1" }, "dba", DesiredState.Forbidden, "pci")]
    [InlineData("Production", new[] { "PCI" }, "dba", DesiredState.Forbidden, "pci")]
    [InlineData("lab", new string[0], "dba", DesiredState.NotApplicable, "lab")]
    [InlineData("Production", new[] { "tier1" }, "Finance", DesiredState.Forbidden, "finance-prod")]
    [InlineData("Production", new[] { "tier1" }, "dba", DesiredState.Required, "prod")]
    [InlineData("Production", new string[0], "finance", DesiredState.Required, "prod")]
    public void First_matching_rule_decides(string environment, string[] tags, string owner, DesiredState expected,
        string rule)
    {
        var decision = PolicyEvaluator.Decide(Policy, Instance(environment: environment, tags: tags, owner: owner));

        Assert.Equal(expected, decision.Desired);
        Assert.Equal(PolicySource.Rule, decision.Source);
        Assert.Equal(rule, decision.RuleName);
    }

    [Fact]
    public void No_matching_rule_means_IFI_is_required()
    {
        var decision = PolicyEvaluator.Decide(Policy, Instance(environment: "Test"));

        Assert.Equal(new PolicyDecision(DesiredState.Required, PolicySource.Default, null), decision);
        Assert.Equal("the default policy", decision.Origin);
    }

    [Fact]
    public void Rule_order_matters_when_two_rules_match()
    {
        var reversed = Policy with { Rules = Policy.Rules.Reverse().ToList() };

        var decision = PolicyEvaluator.Decide(reversed, Instance(tags: ["pci"]));

        Assert.Equal("prod", decision.RuleName);
        Assert.Equal(DesiredState.Required, decision.Desired);
    }

    [Fact]
    public void Rule_without_criteria_matches_every_instance()
    {
        var catchAll = new PolicyDocument
        {
            Version = 1,
            Rules = [new PolicyRule { Name = "everything-forbidden", Desired = DesiredState.Forbidden }],
        };

        Assert.Equal(DesiredState.Forbidden, PolicyEvaluator.Decide(catchAll, Instance(environment: "Dev")).Desired);
    }

    [Theory]
    [InlineData(5)]
    [InlineData(8)]
    public void Azure_SQL_Database_and_Managed_Instance_are_not_applicable_whatever_the_rules(int engineEdition)
    {
        var decision = PolicyEvaluator.Decide(Policy, Instance(engineEdition: engineEdition, tags: ["pci"]));

        Assert.Equal(DesiredState.NotApplicable, decision.Desired);
        Assert.Equal(PolicySource.Platform, decision.Source);
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void Boxed_editions_follow_the_rules(int engineEdition)
    {
        var decision = PolicyEvaluator.Decide(Policy, Instance(engineEdition: engineEdition, tags: ["pci"]));

        Assert.Equal(DesiredState.Forbidden, decision.Desired);
    }
}
