using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Compliance.Policy;

namespace IfiDashboard.Client.Tests.Policy;

public sealed class RulesDraftTests
{
    static RulesDraft Draft(string command, params string[] names) =>
        new() { Command = command, Rules = names.Select(n => new RuleRow { Name = n, Desired = "Required" }).ToList() };

    static string[] Names(RulesDraft draft) => draft.Rules.Select(r => r.Name!).ToArray();

    [Theory]
    [InlineData("up:1", new[] { "b", "a", "c" })]
    [InlineData("down:1", new[] { "a", "c", "b" })]
    [InlineData("remove:0", new[] { "b", "c" })]
    [InlineData("up:0", new[] { "a", "b", "c" })]
    [InlineData("down:2", new[] { "a", "b", "c" })]
    public void Moving_and_removing_change_only_the_draft(string command, string[] expected)
    {
        var draft = Draft(command, "a", "b", "c");

        Assert.True(draft.TryEdit(new FormErrors()));
        Assert.Equal(expected, Names(draft));
    }

    [Theory]
    [InlineData("save")]
    [InlineData("remove:9")]
    [InlineData("explode:1")]
    [InlineData(null)]
    public void Save_and_commands_that_do_not_apply_are_not_edits(string? command)
    {
        var draft = Draft(command!, "a", "b");

        Assert.False(draft.TryEdit(new FormErrors()));
        Assert.Equal(["a", "b"], Names(draft));
    }

    [Fact]
    public void Adding_stops_at_fifty_rules()
    {
        var draft = Draft("add", Enumerable.Range(1, RulesDraft.MaxRules).Select(i => $"r{i}").ToArray());
        var errors = new FormErrors();

        draft.TryEdit(errors);

        Assert.Equal(RulesDraft.MaxRules, draft.Rules.Count);
        Assert.Contains("at most 50", errors.For("Draft.Rules"), StringComparison.Ordinal);
    }

    [Fact]
    public void Fifty_one_rules_are_not_saved()
    {
        var draft = Draft("save", Enumerable.Range(1, RulesDraft.MaxRules + 1).Select(i => $"r{i}").ToArray());
        var errors = new FormErrors();

        Assert.Null(draft.Validate(errors));
        Assert.Contains("remove 1", errors.For("Draft.Rules"), StringComparison.Ordinal);
    }

    [Fact]
    public void A_valid_draft_becomes_rules_with_trimmed_criteria_and_split_tags()
    {
        var draft = new RulesDraft
        {
            Rules = [new RuleRow { Name = " pci ", Desired = "Forbidden", Tags = "pci; cardholder;;PCI ", Environment = " ", Owner = " sec-team " }],
        };

        var rule = Assert.Single(draft.Validate(new FormErrors())!);

        Assert.Equal(new PolicyRule { Name = "pci", Desired = DesiredState.Forbidden, Owner = "sec-team" } with { Tags = rule.Tags }, rule);
        Assert.Equal(["pci", "cardholder"], rule.Tags);
        Assert.Null(rule.Environment);
    }

    [Fact]
    public void Tags_separated_by_commas_are_refused_naming_the_one_separator()
    {
        var draft = new RulesDraft { Rules = [new RuleRow { Name = "pci", Desired = "Forbidden", Tags = "pci, cardholder" }] };
        var errors = new FormErrors();

        Assert.Null(draft.Validate(errors));
        Assert.Contains("Separate tags with ';'", errors.For(RulesDraft.Field(0, "Tags")), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("7")]
    [InlineData("Maybe")]
    [InlineData("")]
    public void A_desired_state_that_is_not_one_of_the_three_is_refused(string desired)
    {
        var draft = new RulesDraft { Rules = [new RuleRow { Name = "x", Desired = desired }] };
        var errors = new FormErrors();

        Assert.Null(draft.Validate(errors));
        Assert.NotNull(errors.For(RulesDraft.Field(0, "Desired")));
    }

    [Fact]
    public void Host_selectors_are_read_from_the_fields_and_a_bad_value_is_named_beside_its_field()
    {
        var fields = new Dictionary<string, string>
        {
            [RulesDraft.Field(0, "Name")] = "linux pci", [RulesDraft.Field(0, "Desired")] = "Forbidden",
            [RulesDraft.Field(0, "Platforms")] = "linux", [RulesDraft.Field(0, "Versions")] = "2017 - 2019, 2025+",
            [RulesDraft.Field(1, "Name")] = "bad", [RulesDraft.Field(1, "Desired")] = "Required",
            [RulesDraft.Field(1, "Editions")] = "Datacenter", [RulesDraft.Field(1, "Clusters")] = "Standalone",
            [RulesDraft.Field(1, "Platforms")] = "AzureSqlDatabase",
        };
        var draft = RulesDraft.FromFields(fields);
        var errors = new FormErrors();

        Assert.Null(draft.Validate(errors));
        Assert.Null(errors.For(RulesDraft.Field(0, "Platforms")));
        Assert.Null(errors.For(RulesDraft.Field(0, "Versions")));
        Assert.Equal("'Datacenter' is not one of Enterprise, Standard, Developer, Express, Web, Evaluation, BusinessIntelligence.",
            errors.For(RulesDraft.Field(1, "Editions")));
        Assert.Contains("always not applicable", errors.For(RulesDraft.Field(1, "Platforms")), StringComparison.Ordinal);

        draft.Rules.RemoveAt(1);
        var rule = Assert.Single(draft.Validate(new FormErrors())!);
        Assert.Equal([PolicyPlatform.Linux], rule.Platforms);
        Assert.Equal(["2017-2019", "2025+"], rule.Versions);
    }
}
