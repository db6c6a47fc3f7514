using IfiDashboard.Collector;
using IfiDashboard.Server.Store;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace IfiDashboard.Server.Collection;

public static class EmbeddedCollectorExtensions
{
    /// <summary>
    /// The collector inside the server: it leases instances from the store and writes snapshots straight into it.
    /// A poll the store is too busy to take is stored again (<see cref="RetryingSnapshotSink"/>).
    /// <c>Collector:Enabled=false</c> leaves polling to standalone collectors (they post to the ingestion API).
    /// </summary>
    public static IServiceCollection AddIfiEmbeddedCollector(this IServiceCollection services, IConfiguration configuration)
    {
        services.TryAddSingleton<FleetChanges>();
        services.AddSingleton<NotifyingSnapshotSink>();
        services.AddSingleton<RetryingSnapshotSink>();
        services.Replace(ServiceDescriptor.Singleton<ISnapshotSink>(sp => sp.GetRequiredService<RetryingSnapshotSink>()));
        services.AddIfiCollector(configuration, runInBackground: configuration.GetValue("Collector:Enabled", true));
        return services;
    }
}
