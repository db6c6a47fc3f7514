using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>Assignment rules from configuration: the same rule set as the API and the page, checked at start.</summary>
public sealed class AssignmentOptionsTests
{
    static ServiceProvider Provider(params (string Key, string Value)[] settings)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(settings.Select(s => new KeyValuePair<string, string?>(s.Key, s.Value))).Build();
        return new ServiceCollection().AddIfiCollectorAssignments(configuration).BuildServiceProvider();
    }

    [Fact]
    public void Configured_rules_are_bound_in_order_as_the_store_applies_them()
    {
        using var provider = Provider(("Assignments:Rules:0:Match", "Network"), ("Assignments:Rules:0:Values:0", "10.20.0.0/16"),
            ("Assignments:Rules:0:Collectors:0", "paris-a"), ("Assignments:Rules:0:Collectors:1", "paris-b"),
            ("Assignments:Rules:1:Match", "All"), ("Assignments:Rules:1:Collectors:0", "london"));

        provider.GetRequiredService<IStartupValidator>().Validate();
        var rules = provider.GetRequiredService<IOptions<AssignmentOptions>>().Value.ToAssignments();

        Assert.Equal("network: 10.20.0.0/16 -> paris-a, paris-b\nall -> london", CollectorAssignments.Format(rules));
    }

    [Theory]
    [InlineData("Values:0", "10.20.0.1/16", "Assignments:Rules:0:Values:0: A network in CIDR notation")]
    [InlineData("Collectors:0", "paris/a", "Assignments:Rules:0:Collectors:0: A collector's Collector:Name")]
    public void A_configured_rule_that_breaks_the_rule_set_stops_the_start_naming_its_key(string key, string value, string message)
    {
        var settings = new Dictionary<string, string>
        {
            ["Assignments:Rules:0:Match"] = "Network", ["Assignments:Rules:0:Values:0"] = "10.20.0.0/16",
            ["Assignments:Rules:0:Collectors:0"] = "paris-a",
        };
        settings[$"Assignments:Rules:0:{key}"] = value;
        using var provider = Provider([.. settings.Select(s => (s.Key, s.Value))]);

        var error = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<IStartupValidator>().Validate());

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }
}
