using IfiDashboard.Client;
using IfiDashboard.Client.Pages.Audit;
using IfiDashboard.Server.Audit;
using IfiDashboard.Shared.Dashboard;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace IfiDashboard.Server.Dashboard;

public static class DashboardUiExtensions
{
    /// <summary>
    /// The Blazor dashboard (src/Client), rendered on the server (static SSR) and kept current by Server-Sent Events.
    /// See docs/decisions/0003-static-ssr-and-live-refresh.md.
    /// </summary>
    public static IServiceCollection AddIfiDashboardUi(this IServiceCollection services)
    {
        services.TryAddSingleton<FleetChanges>();
        services.AddRazorComponents();
        services.AddSingleton<IAuditView, AuditView>();
        return services;
    }

    public static WebApplication MapIfiDashboardUi(this WebApplication app)
    {
        app.UseAntiforgery();
        app.MapStaticAssets();
        app.MapFleetEvents();
        app.MapAuditExport();
        app.MapRazorComponents<App>();
        return app;
    }
}
