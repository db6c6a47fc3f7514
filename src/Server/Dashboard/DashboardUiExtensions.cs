using IfiDashboard.Client;
using IfiDashboard.Client.Pages.Audit;
using IfiDashboard.Server.Audit;
using IfiDashboard.Server.Security;
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
        // The stylesheet and scripts hold nothing secret, and the sign-in pages need them.
        app.MapStaticAssets().AllowAnonymous();
        app.MapFleetEvents();
        app.MapAuditExport();
        app.MapRazorComponents<App>().RequireAuthorization(DashboardPages.Policy);
        return app;
    }
}
