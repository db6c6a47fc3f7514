namespace IfiDashboard.Server.Security;

/// <summary>
/// The three role policies of <see cref="DashboardRoles"/>, each admitting its role and the ones above it. Minimal:
/// it only makes <c>[Authorize(Policy = ...)]</c> resolvable; the sign-in that gives users these roles comes with
/// the dashboard's sign-in (OpenID Connect / trusted proxy).
/// </summary>
public static class DashboardPolicies
{
    public static IServiceCollection AddIfiDashboardPolicies(this IServiceCollection services)
    {
        services.AddAuthorizationBuilder()
            .AddPolicy(DashboardRoles.Viewer, p => p.RequireRole(DashboardRoles.Viewer, DashboardRoles.Operator, DashboardRoles.Administrator))
            .AddPolicy(DashboardRoles.Operator, p => p.RequireRole(DashboardRoles.Operator, DashboardRoles.Administrator))
            .AddPolicy(DashboardRoles.Administrator, p => p.RequireRole(DashboardRoles.Administrator));
        return services;
    }
}
