using IfiDashboard.Collector.Credentials;
using Microsoft.Extensions.Configuration;

namespace IfiDashboard.Collector.Tests.Credentials;

/// <summary>
/// An instance registered by an earlier release as <c>fleet-reader</c> is polled with the login exported as
/// <c>Credentials__fleet_reader__*</c> (no shell exports a '-'), and still with a secrets file that kept the old key.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class LegacyCredentialNameTests
{
    static ConfigurationCredentialResolver Resolver(string key) => new(new ConfigurationBuilder()
        .AddInMemoryCollection(new Dictionary<string, string?>
        {
            [$"Credentials:{key}:UserId"] = "ifi_collector",
            [$"Credentials:{key}:Password"] = "from-" + key,
            [$"Credentials:{key}:AllowedHosts:0"] = "*.corp.example",
        })
        .Build());

    [Fact]
    public void A_hyphenated_name_finds_the_login_under_its_underscore_form()
    {
        var credential = Resolver("fleet_reader").Resolve("fleet-reader");

        Assert.Equal("from-fleet_reader", credential?.Password);
    }

    [Fact]
    public void A_secrets_file_key_with_the_hyphen_is_still_read_as_written()
    {
        var credential = Resolver("fleet-reader").Resolve("fleet-reader");

        Assert.Equal("from-fleet-reader", credential?.Password);
    }
}
