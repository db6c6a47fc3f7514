using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Migrations;
using IfiDashboard.Server.Composition;
using IfiDashboard.Shared.Inventory;
using Microsoft.AspNetCore.Diagnostics;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using IfiDashboard.Server.Security;
using IfiDashboard.Store;
using IfiDashboard.Store.Remediation;
using IfiDashboard.Store.Reports;

namespace IfiDashboard.Server.Store;

public static class StoreServiceCollectionExtensions
{
    /// <summary>
    /// Registers the store (section <c>Store</c>): connections, inventory, leases, ingestion, queries, and
    /// <see cref="FleetChanges"/>, which every module that follows the fleet takes from here. Polls are written through
    /// <see cref="SnapshotStore"/>; <c>ISnapshotSink</c> is the embedded collector's (<c>AddIfiEmbeddedCollector</c>).
    /// </summary>
    public static IServiceCollection AddIfiStore(this IServiceCollection services, IConfiguration config)
    {
        services.AddIfiModule(IfiModuleNames.Store);
        services.AddOptions<StoreOptions>()
            .Bind(config.GetSection(StoreOptions.SectionName))
            .Validate(o => o.IsSqlite || o.IsPostgres, "Store:Provider must be \"Sqlite\" or \"Postgres\".")
            .Validate(o => !string.IsNullOrWhiteSpace(o.ConnectionString), "Store:ConnectionString is required.")
            .Validate(o => o.StartupWaitSeconds is >= 0 and <= 3600, "Store:StartupWaitSeconds must be 0 to 3600.")
            .Validate(o => o.MaxSizeMegabytes >= 0, "Store:MaxSizeMegabytes must be 0 (no limit) or more.")
            .ValidateOnStart();

        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<IDbConnectionFactory>(sp =>
            sp.GetRequiredService<IOptions<StoreOptions>>().Value.IsPostgres
                ? new PostgresConnectionFactory(sp.GetRequiredService<IOptions<StoreOptions>>())
                : new SqliteConnectionFactory(sp.GetRequiredService<IOptions<StoreOptions>>(), sp.GetRequiredService<IOptionsMonitor<StoreOptions>>()));
        services.AddSingleton<StoreFaults>();
        services.AddHttpContextAccessor();
        services.AddSingleton<AuditActors>();
        services.AddSingleton<IAuditActors>(sp => sp.GetRequiredService<AuditActors>());
        services.AddSingleton<AuditLog>();
        services.AddSingleton<FleetChanges>();
        services.AddSingleton<InstanceInventory>();
        services.AddSingleton<CollectorStore>();
        services.AddSingleton<AssignmentStore>();
        services.AddSingleton<StoreInstanceSource>();
        services.AddSingleton<IInstanceSource>(sp => sp.GetRequiredService<StoreInstanceSource>());
        services.AddSingleton<SnapshotStore>();
        services.AddSingleton<FleetReader>();
        services.AddSingleton<EvidenceReportReader>();
        services.AddSingleton<IfiDashboard.Store.Remediation.RemediationPacks>();
        services.AddSingleton<IFleetReader>(sp => sp.GetRequiredService<FleetReader>());
        services.AddSingleton<StoreMigrations>();
        services.AddSingleton<StoreHealth>();
        services.AddLogging(); // StoreAvailability logs an outage's start and end
        services.AddSingleton<StoreAvailability>();
        services.AddSingleton<Client.Layout.IStoreStatus>(sp => sp.GetRequiredService<StoreAvailability>());
        services.AddSingleton<StoreBusyResponses>();
        services.AddPipelineStage(PipelineStage.StoreFaults, sp => sp.GetRequiredService<StoreBusyResponses>());
        services.AddSingleton<IDeveloperPageExceptionFilter>(sp => sp.GetRequiredService<StoreBusyResponses>());
        return services;
    }

    /// <summary>
    /// Brings the store's schema up to date and returns the scripts it applied; the host calls this once at start,
    /// before serving.
    /// </summary>
    public static async Task<IReadOnlyList<string>> MigrateIfiStoreAsync(this IServiceProvider services, CancellationToken ct = default)
    {
        var wait = TimeSpan.FromSeconds(services.GetRequiredService<IOptions<StoreOptions>>().Value.StartupWaitSeconds);
        return await services.GetRequiredService<StoreMigrations>().ApplyAsync(wait, ct);
    }
}
