using IfiDashboard.Client.Pages.Changes;
using IfiDashboard.Client.Pages.Detail;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Store;
using IfiDashboard.Store.Policy;
using Microsoft.Extensions.DependencyInjection.Extensions;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Store;
using Microsoft.Extensions.Options;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Store.Facts;

namespace IfiDashboard.Server.Compliance;

public static class ComplianceExtensions
{
    /// <summary>
    /// The compliance engine over the store: policy and waivers, the background fleet assessment the pages read,
    /// instance details and the fleet's timeline. <c>Compliance:DefaultZeroingMBps</c> is the zeroing rate assumed for
    /// instances without their own growth samples; <c>Compliance:MountRoots</c> lists mount points that count as
    /// separate volumes.
    /// </summary>
    public static IServiceCollection AddIfiCompliance(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddIfiModule(IfiModuleNames.Compliance, IfiModuleNames.Store);
        services.AddMetrics();
        services.AddOptions<ComplianceOptions>().Bind(configuration.GetSection(ComplianceOptions.Section))
            .Validate(o => o.DefaultZeroingMBps is >= ComplianceOptions.MinZeroingMBps and <= ComplianceOptions.MaxZeroingMBps,
                $"Compliance:DefaultZeroingMBps must be from {ComplianceOptions.MinZeroingMBps} to {ComplianceOptions.MaxZeroingMBps} (MB/s).")
            .Validate(o => o.MountRoots.All(root => !string.IsNullOrWhiteSpace(root)), "Compliance:MountRoots: an entry is empty.")
            .ValidateOnStart();
        services.AddSingleton(sp => sp.GetRequiredService<IOptions<ComplianceOptions>>().Value.ZeroingRates());
        services.AddSingleton<PolicyStore>();
        services.AddSingleton<DailyComplianceStore>();
        services.AddSingleton<FactsReader>();
        services.AddSingleton<FleetAssessmentBuilder>();
        services.AddSingleton<FleetAssessments>();
        services.AddSingleton<IFleetAssessments>(sp => sp.GetRequiredService<FleetAssessments>());
        services.AddHostedService(sp => sp.GetRequiredService<FleetAssessments>());
        services.AddSingleton<IInstanceDetails, InstanceDetailsReader>();
        services.AddSingleton<IFleetTimeline, FleetTimelineReader>();
        return services;
    }
}
