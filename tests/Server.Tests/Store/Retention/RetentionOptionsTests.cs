using IfiDashboard.Server.Store;
using IfiDashboard.Store.Retention;
using IfiDashboard.Server.Tests.Deployment;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Store.Retention;

public sealed class RetentionOptionsTests
{
    static ServiceProvider Provider(IConfiguration config) =>
        new ServiceCollection().AddLogging().AddIfiRetention(config).BuildServiceProvider();

    static IConfiguration Config(params (string Key, string Value)[] settings) => new ConfigurationBuilder()
        .AddInMemoryCollection(settings.Select(s => KeyValuePair.Create<string, string?>(s.Key, s.Value)))
        .Build();

    [Fact]
    public void Defaults_keep_polls_90_days_and_growth_events_400()
    {
        using var provider = Provider(Config());

        var options = provider.GetRequiredService<IOptions<RetentionOptions>>().Value;

        Assert.True(options.Enabled);
        Assert.Equal((90, 400, 180, 2557, 60, 500, 50),
            (options.PollDays, options.GrowthEventDays, options.AlertOutboxDays, options.AuditDays, options.IntervalMinutes, options.BatchSize, options.BatchPauseMilliseconds));
    }

    [Fact]
    public void Shipped_appsettings_hold_valid_retention_settings()
    {
        var config = new ConfigurationBuilder()
            .AddJsonFile(Path.Combine(RepositoryRoot.Path, "src", "Server", "appsettings.json"))
            .Build();
        using var provider = Provider(config);

        var options = provider.GetRequiredService<IOptions<RetentionOptions>>().Value;

        Assert.True(config.GetSection(RetentionOptions.SectionName).Exists());
        Assert.Equal((true, 90, 400, 2557), (options.Enabled, options.PollDays, options.GrowthEventDays, options.AuditDays));
    }

    [Theory]
    [InlineData("PollDays", "0", "Retention:PollDays must be a whole number of days from 1 to 36500")]
    [InlineData("PollDays", "40000", "Retention:PollDays must be a whole number of days from 1 to 36500")]
    [InlineData("GrowthEventDays", "30", "Retention:GrowthEventDays must be from 90 to 36500 days")]
    [InlineData("AlertOutboxDays", "-1", "Retention:AlertOutboxDays must be a whole number of days from 1 to 36500")]
    [InlineData("AuditDays", "366", "Retention:AuditDays must be from 400 to 36500 days")]
    [InlineData("IntervalMinutes", "0", "Retention:IntervalMinutes must be from 1 to 10080")]
    [InlineData("BatchSize", "0", "Retention:BatchSize must be from 1 to 10000 rows")]
    [InlineData("BatchSize", "20000", "Retention:BatchSize must be from 1 to 10000 rows")]
    [InlineData("BatchPauseMilliseconds", "-5", "Retention:BatchPauseMilliseconds must be from 0 to 60000")]
    public void Invalid_settings_stop_the_start_with_a_message_naming_the_key(string key, string value, string message)
    {
        using var provider = Provider(Config(($"Retention:{key}", value)));

        // What the host runs at start for options registered with ValidateOnStart.
        var error = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<IStartupValidator>().Validate());

        Assert.Contains(message, error.Message);
        Assert.Single(error.Failures);
    }
}
