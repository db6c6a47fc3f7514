using IfiDashboard.Shared.Hosting;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Collector.Standalone;

public static class StandaloneCollectorExtensions
{
    public static IServiceCollection AddIfiStandaloneCollector(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<ServerConnectionOptions>().Bind(configuration.GetSection(Connections.CollectorOptions.Section))
            .Validate(o => o.Servers.Count > 0 && o.Servers.All(url => url.IsAbsoluteUri),
                "Collector:ServerUrl must be the server's absolute URL (or Collector:ServerUrls:0, :1, ... those of several servers).")
            .Validate(o => o.OutageRideThroughMinutes is >= 0 and <= 24 * 60, "Collector:OutageRideThroughMinutes must be between 0 and 1440.")
            .Validate(o => !string.IsNullOrWhiteSpace(o.ApiKey), $"Collector:ApiKey is required: one of the server's Ingestion:ApiKeys, or an API key with the scope '{CollectorKeyRejectedException.RequiredScope}'.")
            .ValidateOnStart();
        services.AddSingleton(sp => new ServerFailover(sp.GetRequiredService<IOptions<ServerConnectionOptions>>().Value.Servers,
            sp.GetRequiredService<Microsoft.Extensions.Logging.ILogger<ServerFailover>>()));
        services.AddHttpClient<CollectorApiClient>((sp, http) =>
        {
            var server = sp.GetRequiredService<IOptions<ServerConnectionOptions>>().Value;
            var failover = sp.GetRequiredService<ServerFailover>();
            http.BaseAddress = failover.BaseAddress;
            http.DefaultRequestHeaders.Add("X-Api-Key", server.ApiKey);
            http.Timeout = failover.RequestTimeout;
        }).AddHttpMessageHandler(sp => sp.GetRequiredService<ServerFailover>().CreateHandler());
        services.AddSingleton(sp => new OutageRideThrough(sp.GetRequiredService<CollectorApiClient>(),
            sp.GetRequiredService<IOptions<ServerConnectionOptions>>().Value, sp.GetRequiredService<TimeProvider>(),
            sp.GetRequiredService<Microsoft.Extensions.Logging.ILogger<OutageRideThrough>>()));
        services.AddSingleton<IInstanceSource>(sp => sp.GetRequiredService<OutageRideThrough>());
        var outbox = new OutboxOptions();
        configuration.GetSection(OutboxOptions.Section).Bind(outbox);
        if (string.IsNullOrWhiteSpace(outbox.Directory))
            outbox.Directory = OutboxOptions.DefaultDirectory(
                (configuration.GetSection(Connections.CollectorOptions.Section).Get<Connections.CollectorOptions>() ?? new()).Name);
        if (outbox.MaxDeliveriesInFlight is < 1 or > OutboxOptions.MostDeliveriesInFlight)
            throw new InvalidSettingException($"{OutboxOptions.Section}:{nameof(OutboxOptions.MaxDeliveriesInFlight)}",
                $"must be between 1 and {OutboxOptions.MostDeliveriesInFlight} (snapshots of different instances sent at once; default 8).");
        services.AddSingleton(outbox);
        services.AddSingleton<SnapshotOutbox>();
        services.AddSingleton<ISnapshotSink>(sp => sp.GetRequiredService<SnapshotOutbox>());
        services.AddHostedService<SnapshotOutboxDelivery>();
        services.AddIfiCollector(configuration);
        return services;
    }
}
