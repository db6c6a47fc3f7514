using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Credentials;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Shared.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Collector;

public static class CollectorServiceCollectionExtensions
{
    /// <summary>
    /// Registers the prober and the scheduler. The host supplies <see cref="Shared.Inventory.IInstanceSource"/> and
    /// <see cref="Shared.Snapshots.ISnapshotSink"/>: the store when embedded, the server's API when standalone.
    /// </summary>
    /// <param name="runInBackground">False registers everything but the background scheduler (tests, "test connection").</param>
    public static IServiceCollection AddIfiCollector(this IServiceCollection services, IConfiguration configuration,
        bool runInBackground = true)
    {
        AddSecretsFile(configuration);
        services.AddOptions<CollectorOptions>().Bind(configuration.GetSection(CollectorOptions.Section))
            .Validate(o => o.MaxConcurrency > 0 && o.PollDeadlineSeconds > 0 && o.LeaseSeconds > o.PollDeadlineSeconds,
                "Collector: MaxConcurrency and PollDeadlineSeconds must be positive and LeaseSeconds longer than the deadline.")
            .Validate(o => HostAllowList.TryParse(o.AllowedNetworks, out _),
                "Collector:AllowedNetworks: each entry is a host name, an IP address, a wildcard ('*.prod.example.com', " +
                "'sql-*') or a CIDR range ('10.20.0.0/16'), optionally with a port or range ('10.20.0.0/16:1433-1434', '[fd00::5]:1433').")
            .ValidateOnStart();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton(sp => sp.GetRequiredService<IOptions<CollectorOptions>>().Value);
        services.AddSingleton<ICredentialResolver>(sp => new ConfigurationCredentialResolver(configuration));
        services.AddSingleton<ConnectionStringFactory>();
        services.AddSingleton<GrowthWatermarks>();
        services.AddSingleton<InstanceProber>();
        services.AddSingleton<CollectorMetrics>();
        services.AddSingleton<CollectorWakeUp>();
        services.AddSingleton<CollectorService>();
        if (runInBackground) services.AddHostedService(sp => sp.GetRequiredService<CollectorService>());
        return services;
    }

    /// <summary>
    /// Credentials from the JSON file named by <c>Collector:SecretsFile</c>, for the embedded and the standalone
    /// collector alike, reloaded when it changes. A file named but unreadable stops the start: polling without the
    /// credentials would only fail later, instance by instance.
    /// </summary>
    static void AddSecretsFile(IConfiguration configuration)
    {
        const string setting = CollectorOptions.Section + ":" + nameof(CollectorOptions.SecretsFile);
        if (configuration[setting] is not { Length: > 0 } path || configuration is not IConfigurationBuilder builder) return;
        try
        {
            builder.AddJsonFile(Path.GetFullPath(path), optional: false, reloadOnChange: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            throw new InvalidSettingException(setting,
                $"the secrets file {Path.GetFullPath(path)} cannot be read ({e.Message}); give a readable JSON file of credentials, or remove the setting.", e);
        }
    }
}
