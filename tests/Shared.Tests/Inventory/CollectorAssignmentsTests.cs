using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Shared.Tests.Inventory;

public sealed class CollectorAssignmentsTests
{
    static AssignableInstance Instance(string host, string environment = "Production", string[]? tags = null, string name = "SQL01",
        string? key = "CI001") => new(name, key, environment, tags ?? [], host);

    [Theory]
    [InlineData("10.20.3.4", 0)]
    [InlineData("[fd00::5]", 0)]
    [InlineData("10.21.0.1", 1)]
    [InlineData("sql01.corp.example", 1)] // a DNS name is in no network: the rules never resolve names
    public void The_first_rule_that_matches_assigns_and_a_network_rule_reads_the_host_as_an_address(string host, int rule)
    {
        IReadOnlyList<CollectorAssignment> rules =
        [
            new(AssignmentMatch.Network, ["10.20.0.0/16", "fd00::/8"], ["paris-a"]),
            new(AssignmentMatch.All, [], ["london"]),
        ];

        Assert.Equal(rule, CollectorAssignments.RuleFor(rules, Instance(host)));
    }

    [Fact]
    public void Environments_and_tags_compare_ignoring_case_an_instance_by_name_or_CMDB_key_and_an_unmatched_instance_is_unassigned()
    {
        IReadOnlyList<CollectorAssignment> rules =
        [
            new(AssignmentMatch.Instances, ["CI009", "sql07"], ["a"]),
            new(AssignmentMatch.Tag, ["PCI"], ["b"]),
            new(AssignmentMatch.Environment, ["uat"], ["c"]),
        ];

        Assert.Equal(0, CollectorAssignments.RuleFor(rules, Instance("h", key: "CI009")));
        Assert.Equal(0, CollectorAssignments.RuleFor(rules, Instance("h", name: "SQL07", key: null)));
        Assert.Equal(1, CollectorAssignments.RuleFor(rules, Instance("h", tags: ["pci"])));
        Assert.Equal(2, CollectorAssignments.RuleFor(rules, Instance("h", environment: "UAT")));
        Assert.Null(CollectorAssignments.RuleFor(rules, Instance("h")));
    }

    [Fact]
    public void The_pages_text_reads_back_as_the_rules_it_was_written_from()
    {
        IReadOnlyList<CollectorAssignment> rules =
        [
            new(AssignmentMatch.Environment, ["Production", "Pre Production"], ["paris-a", "paris-b"]),
            new(AssignmentMatch.All, [], ["london"]),
        ];

        var (read, errors) = CollectorAssignments.Parse(CollectorAssignments.Format(rules) + "\n# a comment\n\n");

        Assert.Empty(errors);
        Assert.Equal(CollectorAssignments.Format(rules), CollectorAssignments.Format(read));
        Assert.Equal(["Pre Production"], read[0].Values.Skip(1));
    }

    [Theory]
    [InlineData("subnet: 10.0.0.0/8 -> a", "match")]
    [InlineData("tag: pci", "match")]
    [InlineData("0: x -> a", "match")]
    public void A_line_it_cannot_read_is_an_error_on_that_rule(string line, string field)
    {
        var (_, errors) = CollectorAssignments.Parse("all -> a\n" + line);

        var error = Assert.Single(errors);
        Assert.Equal((1, field), (error.Rule, error.Field));
    }

    [Theory]
    [InlineData(AssignmentMatch.Network, "10.20.0.1/16", "values[0]")]
    [InlineData(AssignmentMatch.Network, "10.20.0.0", "values[0]")]
    [InlineData(AssignmentMatch.Tag, " pci", "values[0]")]
    [InlineData(AssignmentMatch.Tag, "pci\u202E", "values[0]")]
    [InlineData(AssignmentMatch.All, "x", "values")]
    public void A_value_that_breaks_the_rule_set_is_named(AssignmentMatch match, string value, string field)
    {
        var error = Assert.Single(CollectorAssignments.Check([new CollectorAssignment(match, [value], ["a"])]));

        Assert.Equal($"rules[0].{field}", error.Path);
    }

    [Fact]
    public void A_rule_needs_a_collector_each_named_once_and_by_a_collector_name()
    {
        var errors = CollectorAssignments.Check(
        [
            new CollectorAssignment(AssignmentMatch.All, [], []),
            new CollectorAssignment(AssignmentMatch.All, [], ["a", "a"]),
            new CollectorAssignment(AssignmentMatch.All, [], ["a/b"]),
        ]);

        Assert.Equal(["rules[0].collectors", "rules[1].collectors[1]", "rules[2].collectors[0]"], errors.Select(e => e.Path));
    }
}
