using IfiDashboard.Client.Components;
using IfiDashboard.Collector;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Composition;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Collection;

public static class EmbeddedCollectorExtensions
{
    /// <summary>
    /// The collector inside the server: it leases instances from the store and writes snapshots straight into it.
    /// This is the one owner of the server's <see cref="ISnapshotSink"/>: a poll is stored and open pages told
    /// (<see cref="NotifyingSnapshotSink"/>, which the collectors' API stores through too), and one the store is too busy
    /// to take is stored again (<see cref="RetryingSnapshotSink"/>).
    /// <c>Collector:Enabled=false</c> leaves polling to standalone collectors (they post to the ingestion API).
    /// "Verify now" (<see cref="VerifyNow"/>) lives here: it makes instances due and wakes this collector.
    /// </summary>
    public static IServiceCollection AddIfiEmbeddedCollector(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddIfiModule(IfiModuleNames.EmbeddedCollector, IfiModuleNames.Store, IfiModuleNames.Compliance);
        services.AddSingleton<NotifyingSnapshotSink>();
        services.AddSingleton<RetryingSnapshotSink>();
        services.AddSingleton<ISnapshotSink>(sp => sp.GetRequiredService<RetryingSnapshotSink>());
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
