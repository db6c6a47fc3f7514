using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class PolicyImpactTests
{
    static readonly PolicyDocument RequireEverywhere = new() { Version = 4 };

    static readonly InstanceFacts[] Instances =
    [
        Instance(IfiState.Enabled, id: 1, name: "VAULT01", tags: ["pci"]),
        Instance(IfiState.Disabled, id: 2, name: "CARDS01", tags: ["pci"]),
        Instance(IfiState.Disabled, id: 3, name: "ERP01"),
        Instance(IfiState.Unknown, id: 4, name: "OLD01", tags: ["pci"]),
        Instance(IfiState.Enabled, id: 5, name: "AZ01", engineEdition: 5),
    ];

    [Fact]
    public void A_rule_forbidding_ifi_on_pci_hosts_swaps_their_verdicts_and_leaves_unknown_and_paas_alone()
    {
        var proposed = RequireEverywhere with { Rules = [new PolicyRule { Name = "pci", Tags = ["pci"], Desired = DesiredState.Forbidden }] };

        var impact = PolicyImpact.Compare(Instances, RequireEverywhere, proposed, Now);

        Assert.Equal([("CARDS01", ComplianceStatus.NonCompliant, ComplianceStatus.Compliant), ("VAULT01", ComplianceStatus.Compliant, ComplianceStatus.NonCompliant)],
            impact.Changes.Select(c => (c.InstanceName, c.Before, c.After)).ToArray());
        Assert.Contains("'pci'", impact.Changes[1].Explanation, StringComparison.Ordinal);
        Assert.Equal(new StatusCounts(1, 2, 0, 1, 1, 0), impact.Before);
        Assert.Equal(impact.Before, impact.After);
        Assert.Equal(0, impact.PercentMove);
    }

    [Fact]
    public void A_waiver_in_force_turns_its_instance_waived_and_the_figure_does_not_move()
    {
        var waiver = new Waiver { InstanceId = 3, Reason = "SAN migration", Author = "alice", GrantedAt = Now, ExpiresAt = Now.AddDays(7) };

        var impact = PolicyImpact.Compare(Instances, RequireEverywhere, RequireEverywhere with { Waivers = [waiver] }, Now);

        var change = Assert.Single(impact.Changes);
        Assert.Equal(("ERP01", ComplianceStatus.NonCompliant, ComplianceStatus.Waived), (change.InstanceName, change.Before, change.After));
        Assert.Equal(impact.Before.CompliancePercent, impact.After.CompliancePercent);
    }

    [Fact]
    public void A_waiver_waiting_for_approval_changes_nothing()
    {
        var pending = new Waiver { InstanceId = 3, Reason = "x", Author = "alice", GrantedAt = Now, ExpiresAt = Now.AddDays(7), NeedsApproval = true };

        var impact = PolicyImpact.Compare(Instances, RequireEverywhere, RequireEverywhere with { Waivers = [pending] }, Now);

        Assert.Empty(impact.Changes);
    }

    [Fact]
    public void Taking_instances_out_of_scope_moves_the_compliance_figure_by_the_difference_of_the_two_shares()
    {
        var proposed = RequireEverywhere with { Rules = [new PolicyRule { Name = "erp", Owner = "dba", Environment = "Production", Tags = ["pci"], Desired = DesiredState.NotApplicable }] };

        var impact = PolicyImpact.Compare(Instances, RequireEverywhere, proposed, Now);

        // In scope before: VAULT01 (compliant), CARDS01, ERP01, OLD01: 25 %. After: ERP01 alone, non-compliant: 0 %.
        Assert.Equal((25.0, 0.0, -25.0), (impact.Before.CompliancePercent, impact.After.CompliancePercent, impact.PercentMove));
        Assert.Equal(["CARDS01", "OLD01", "VAULT01"], impact.Changes.Select(c => c.InstanceName).ToArray());
    }

    [Fact]
    public void Each_sides_counts_are_what_judging_every_instance_alone_gives()
    {
        Property.ForAll(random =>
        {
            var fleet = Enumerable.Range(1, 12).Select(i => Instance(random.Pick(IfiState.Enabled, IfiState.Disabled, IfiState.Unknown), id: i,
                name: $"SQL{i:00}", environment: random.Pick("Production", "Test"), tags: random.Next(2) == 0 ? ["pci"] : [])).ToList();
            var proposed = RequireEverywhere with
            {
                Rules = [new PolicyRule { Name = "r", Environment = random.Pick<string?>(null, "Test"), Tags = random.Next(2) == 0 ? ["pci"] : [],
                    Desired = random.Pick(DesiredState.Forbidden, DesiredState.NotApplicable, DesiredState.Required) }],
            };
            return (fleet, proposed);
        }, c =>
        {
            var impact = PolicyImpact.Compare(c.fleet, RequireEverywhere, c.proposed, Now);
            StatusCounts Judged(PolicyDocument policy) => FleetSummaries.Count(c.fleet.Select(f => new AssessedInstance(f, ComplianceEvaluator.Evaluate(f, policy, Now))));
            Assert.Equal(Judged(RequireEverywhere), impact.Before);
            Assert.Equal(Judged(c.proposed), impact.After);
            Assert.All(impact.Changes, ch => Assert.NotEqual(ch.Before, ch.After));
            Assert.Equal(c.fleet.Count(f => ComplianceEvaluator.Evaluate(f, RequireEverywhere, Now).Status != ComplianceEvaluator.Evaluate(f, c.proposed, Now).Status), impact.Changes.Count);
        }, runs: 100);
    }
}
