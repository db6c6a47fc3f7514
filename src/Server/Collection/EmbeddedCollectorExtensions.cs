using IfiDashboard.Client.Components;
using IfiDashboard.Collector;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace IfiDashboard.Server.Collection;

public static class EmbeddedCollectorExtensions
{
    /// <summary>
    /// The collector inside the server: it leases instances from the store and writes snapshots straight into it.
    /// A poll the store is too busy to take is stored again (<see cref="RetryingSnapshotSink"/>).
    /// <c>Collector:Enabled=false</c> leaves polling to standalone collectors (they post to the ingestion API).
    /// "Verify now" (<see cref="VerifyNow"/>) lives here: it makes instances due and wakes this collector.
    /// </summary>
    public static IServiceCollection AddIfiEmbeddedCollector(this IServiceCollection services, IConfiguration configuration)
    {
        services.TryAddSingleton<FleetChanges>();
        services.AddSingleton<NotifyingSnapshotSink>();
        services.AddSingleton<RetryingSnapshotSink>();
        services.Replace(ServiceDescriptor.Singleton<ISnapshotSink>(sp => sp.GetRequiredService<RetryingSnapshotSink>()));
        services.AddIfiCollector(configuration, runInBackground: configuration.GetValue("Collector:Enabled", true));
        services.AddOptions<VerifyNowOptions>().BindConfiguration(VerifyNowOptions.Section)
            .Validate(o => o is { MaxInstances: > 0, PermitLimit: > 0, WindowSeconds: > 0 },
                "VerifyNow:MaxInstances, VerifyNow:PermitLimit and VerifyNow:WindowSeconds must be positive.")
            .ValidateOnStart();
        services.AddSingleton<PollRequests>();
        services.AddSingleton<VerifyNow>();
        services.AddSingleton<IVerifyNow>(sp => sp.GetRequiredService<VerifyNow>());
        return services;
    }
}
