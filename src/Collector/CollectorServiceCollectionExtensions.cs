using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Credentials;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Shared.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Collector;

public static class CollectorServiceCollectionExtensions
{
    /// <summary>
    /// Registers the prober and the scheduler. The host supplies <see cref="Shared.Inventory.IInstanceSource"/> and
    /// <see cref="Shared.Snapshots.ISnapshotSink"/>: the store when embedded, the server's API when standalone. The
    /// configuration is only read: the host adds <c>Collector:SecretsFile</c> to it (<see cref="AddIfiSecretsFile"/>).
    /// </summary>
    /// <param name="runInBackground">False registers everything but the background scheduler (tests, "test connection").</param>
    public static IServiceCollection AddIfiCollector(this IServiceCollection services, IConfiguration configuration,
        bool runInBackground = true)
    {
        services.AddOptions<CollectorOptions>().Bind(configuration.GetSection(CollectorOptions.Section))
            .Validate(o => o.MaxConcurrency is >= 1 and <= 1024, "Collector:MaxConcurrency must be from 1 to 1024.")
            .Validate(o => o.ConnectTimeoutSeconds is >= 1 and <= 600, "Collector:ConnectTimeoutSeconds must be from 1 to 600.")
            .Validate(o => o.CommandTimeoutSeconds is >= 1 and <= 3600, "Collector:CommandTimeoutSeconds must be from 1 to 3600.")
            .Validate(o => o.PollDeadlineSeconds is >= 1 and <= 3600, "Collector:PollDeadlineSeconds must be from 1 to 3600.")
            .Validate(o => o.LeaseSeconds > o.PollDeadlineSeconds,
                "Collector:LeaseSeconds must be longer than Collector:PollDeadlineSeconds, or a lease would end while its poll runs.")
            .Validate(o => o.ConnectRetries is >= 0 and <= 10, "Collector:ConnectRetries must be from 0 to 10.")
            .Validate(o => o.IdleCheckSeconds is > 0 and <= 3600, "Collector:IdleCheckSeconds must be more than 0 and at most 3600.")
            .Validate(o => o.JitterFraction is >= 0 and < 1, "Collector:JitterFraction must be from 0 to less than 1.")
            .Validate(o => !string.IsNullOrWhiteSpace(o.Name), "Collector:Name must not be empty.")
            .Validate(o => HostAllowList.TryParse(o.AllowedNetworks, out _),
                "Collector:AllowedNetworks: each entry is a host name, an IP address, a wildcard ('*.prod.example.com', " +
                "'sql-*') or a CIDR range ('10.20.0.0/16'), optionally with a port or range ('10.20.0.0/16:1433-1434', '[fd00::5]:1433').")
            .Validate(o => string.IsNullOrEmpty(o.SecretsFile) || ReadsSecretsFile(configuration),
                "Collector:SecretsFile is set but the host's configuration does not read it: call AddIfiSecretsFile on the host builder.")
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<CollectorOptions>>(new CredentialsValidation(configuration));
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
    /// collector alike, reloaded when it changes; the host builder adds it before any service registers, so that every
    /// setting (the standalone collector's key and name too) may come from the file, and no <c>AddIfi*</c> call changes
    /// the configuration. A relative path is relative to the working directory, as every path in the settings is
    /// (README). A file named but unreadable stops the start: polling without the credentials would only fail later,
    /// instance by instance.
    /// </summary>
    public static TBuilder AddIfiSecretsFile<TBuilder>(this TBuilder host) where TBuilder : IHostApplicationBuilder
    {
        const string setting = CollectorOptions.Section + ":" + nameof(CollectorOptions.SecretsFile);
        var configuration = host.Configuration;
        if (configuration[setting] is not { Length: > 0 } path || configuration.Sources.OfType<SecretsFileSource>().Any())
            return host;
        var file = Path.GetFullPath(path);
        try
        {
            var source = new SecretsFileSource { Path = file, Optional = false, ReloadOnChange = true };
            source.ResolveFileProvider();
            configuration.Add(source);
            return host;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            throw new InvalidSettingException(setting,
                $"the secrets file {file} cannot be read ({e.Message}); give a readable JSON file of credentials, or remove the setting.", e);
        }
    }

    static bool ReadsSecretsFile(IConfiguration configuration) =>
        configuration is IConfigurationRoot root && root.Providers.Any(p => p is JsonConfigurationProvider { Source: SecretsFileSource });

    sealed class SecretsFileSource : JsonConfigurationSource;
}
