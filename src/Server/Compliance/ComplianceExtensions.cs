using IfiDashboard.Client.Pages.Changes;
using IfiDashboard.Client.Pages.Detail;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Server.Store;
using IfiDashboard.Server.Store.Policy;
using Microsoft.Extensions.DependencyInjection.Extensions;

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
        services.TryAddSingleton<FleetChanges>();
        services.AddMetrics();
        services.AddSingleton(new ZeroingRateOptions
        {
            DefaultBytesPerSecond = configuration.GetValue("Compliance:DefaultZeroingMBps", ZeroingRateOptions.DefaultBytesPerSecondValue / 1024 / 1024) * 1024 * 1024,
            MountRoots = configuration.GetSection("Compliance:MountRoots").Get<string[]>() ?? [],
        });
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
