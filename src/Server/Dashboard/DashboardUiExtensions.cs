using IfiDashboard.Client;
using IfiDashboard.Client.Pages.Audit;
using IfiDashboard.Client.Pages.Collectors;
using IfiDashboard.Server.Audit;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Server.Remediation;
using IfiDashboard.Server.Security;
using IfiDashboard.Store;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Components.Endpoints;

namespace IfiDashboard.Server.Dashboard;

public static class DashboardUiExtensions
{
    /// <summary>
    /// The Blazor dashboard (src/Client): read-mostly pages and forms rendered on the server (static SSR), the pages
    /// that follow the fleet live (overview, instance grid and page, alerts) interactive over a SignalR circuit.
    /// See docs/decisions/0010-interactive-server-where-it-serves.md.
    /// </summary>
    public static IServiceCollection AddIfiDashboardUi(this IServiceCollection services)
    {
        services.AddIfiModule(IfiModuleNames.DashboardUi, IfiModuleNames.Store, IfiModuleNames.Compliance,
            IfiModuleNames.EmbeddedCollector, IfiModuleNames.Editing, IfiModuleNames.Alerts, IfiModuleNames.Api,
            IfiModuleNames.Ingestion, IfiModuleNames.SignIn);
        services.AddRazorComponents().AddInteractiveServerComponents();
        services.AddCascadingAuthenticationState();
        services.AddSingleton<IfiDashboard.Client.Components.PageFailures>();
        services.AddSingleton<IAuditView, AuditView>();
        services.AddSingleton<ICollectorsView, CollectorsView>();
        services.AddSingleton<ICollectorAssignmentsEditor, CollectorAssignmentsEditor>();
        services.AddSingleton<IAssessmentPreparer, OverviewPreparation>();
        return services;
    }

    public static WebApplication MapIfiDashboardUi(this WebApplication app)
    {
        app.UseAntiforgery();
        // The stylesheet and scripts (blazor.web.js included) hold nothing secret, and the sign-in pages need them.
        app.MapStaticAssets().AllowAnonymous();
        app.MapAuditExport();
        app.MapInstancesExport();
        app.MapRemediationPackForm();
        // A page's rule depends on the form posted to it; the circuit's hub (/_blazor: negotiate, the websocket,
        // disconnect) shows only what pages show, so it needs a Viewer: no one else gets a circuit.
        app.MapRazorComponents<App>()
            // The framework would add a second CSP (frame-ancestors 'self', for websocket compression); ours already
            // says frame-ancestors 'none' on every answer (SecurityHeaders).
            .AddInteractiveServerRenderMode(options => options.ContentSecurityFrameAncestorsPolicy = null)
            .Add(endpoint => endpoint.Metadata.Add(new AuthorizeAttribute(
                endpoint.Metadata.OfType<ComponentTypeMetadata>().Any() ? DashboardPages.Policy : DashboardRoles.Viewer)));
        return app;
    }
}
