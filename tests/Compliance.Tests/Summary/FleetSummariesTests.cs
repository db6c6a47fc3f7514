using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class FleetSummariesTests
{
    static readonly PolicyDocument Policy = new()
    {
        Version = 1,
        Rules = [new PolicyRule { Name = "pci", Tags = ["pci"], Desired = DesiredState.Forbidden }],
    };

    static AssessedInstance Assessed(InstanceFacts facts) =>
        new(facts, ComplianceEvaluator.Evaluate(facts, Policy, Now));

    static readonly AssessedInstance[] FleetOfFive =
    [
        Assessed(Instance(IfiState.Enabled, major: 16, id: 1, environment: "Production", tags: ["tier1"], owner: "sales")),
        Assessed(Instance(IfiState.Disabled, major: 15, id: 2, environment: "Production", tags: ["tier1", "pci"], owner: "sales")),
        Assessed(Instance(IfiState.Disabled, major: 15, id: 3, environment: "Test", owner: null)),
        Assessed(Instance(IfiState.Unknown, major: 12, id: 4, environment: "test", tags: ["tier1"], owner: "hr")
            with { LastGoodPollAt = Now.AddHours(-1) }),
        Assessed(Instance(IfiState.Disabled, major: 12, id: 5, environment: "Production", engineEdition: 8, owner: "hr")),
    ];

    [Fact]
    public void Fleet_counts_each_status_once()
    {
        var counts = FleetSummaries.Count(FleetOfFive);

        Assert.Equal(new StatusCounts(Compliant: 2, NonCompliant: 1, Waived: 0, Unknown: 1, NotApplicable: 1, Stale: 1), counts);
        Assert.Equal(50.0, counts.CompliancePercent);
    }

    [Fact]
    public void Environments_group_case_insensitively()
    {
        var groups = FleetSummaries.ByEnvironment(FleetOfFive);

        Assert.Equal(["Production", "Test"], groups.Select(g => g.Key));
        Assert.Equal(new StatusCounts(0, 1, 0, 1, 0, 1), groups.Single(g => g.Key == "Test").Counts);
    }

    [Fact]
    public void Instance_counts_under_each_of_its_tags_and_untagged_ones_apart()
    {
        var groups = FleetSummaries.ByTag(FleetOfFive).ToDictionary(g => g.Key, g => g.Counts.Total);

        Assert.Equal(new Dictionary<string, int> { ["(no tag)"] = 2, ["pci"] = 1, ["tier1"] = 3 }, groups);
    }

    [Fact]
    public void Versions_are_named_by_release()
    {
        var groups = FleetSummaries.ByMajorVersion(FleetOfFive).ToDictionary(g => g.Key, g => g.Counts.Total);

        Assert.Equal(new Dictionary<string, int>
        {
            // The Managed Instance's engine version 12 names no SQL Server release.
            ["SQL Server 2014"] = 1, ["Azure SQL Managed Instance"] = 1, ["SQL Server 2019"] = 2, ["SQL Server 2022"] = 1,
        }, groups);
    }

    [Fact]
    public void Owners_group_with_a_bucket_for_no_owner()
    {
        var groups = FleetSummaries.ByOwner(FleetOfFive).ToDictionary(g => g.Key, g => g.Counts.Compliant);

        Assert.Equal(new Dictionary<string, int> { ["(no owner)"] = 0, ["hr"] = 0, ["sales"] = 2 }, groups);
    }

    [Fact]
    public void Nothing_in_scope_has_no_compliance_percent() =>
        Assert.Null(new StatusCounts(0, 0, 0, 0, 3, 0).CompliancePercent);

    [Fact]
    public void Waived_and_unknown_count_against_the_compliance_percent() =>
        Assert.Equal(25.0, new StatusCounts(1, 0, 2, 1, 4, 0).CompliancePercent);
}
