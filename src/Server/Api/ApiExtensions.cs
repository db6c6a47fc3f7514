using IfiDashboard.Shared.Security;
using IfiDashboard.Server.Api.Auth;
using IfiDashboard.Server.Audit;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Server.Collection;
using IfiDashboard.Server.Remediation;
using IfiDashboard.Server.Reports;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Server.Api.Compliance;
using IfiDashboard.Server.Api.Http;
using IfiDashboard.Server.Api.Inventory;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Api.OpenApi;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Store.ApiKeys;
using IfiDashboard.Server.Store.Inventory;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.OpenApi;

namespace IfiDashboard.Server.Api;

/// <summary>The REST API under /api/v1 (inventory, API keys), its key authentication, rate limits and reference page.</summary>
public static class ApiExtensions
{
    public static IServiceCollection AddIfiApi(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<ApiOptions>()
            .Bind(configuration.GetSection(ApiOptions.Section))
            .Validate(o => string.IsNullOrEmpty(o.BootstrapAdminKey) || o.BootstrapAdminKey.Length >= ApiOptions.MinBootstrapKeyLength,
                $"Api:BootstrapAdminKey must be at least {ApiOptions.MinBootstrapKeyLength} characters.")
            .Validate(o => o.RateLimit is { PermitLimit: > 0, WindowSeconds: > 0 },
                "Api:RateLimit:PermitLimit and Api:RateLimit:WindowSeconds must be positive.")
            .Validate(o => o is { MaxBodyBytes: > 0, MaxSyncBodyBytes: > 0, MaxSyncInstances: > 0 },
                "Api:MaxBodyBytes, Api:MaxSyncBodyBytes and Api:MaxSyncInstances must be positive.")
            .ValidateOnStart();

        services.AddSingleton<ApiKeyStore>();
        services.AddSingleton<ApiKeyIssuer>();
        services.AddSingleton<ApiKeyAuthenticator>();
        services.AddSingleton<InventoryReader>();

        services.AddAuthentication()
            .AddScheme<AuthenticationSchemeOptions, ApiKeyAuthenticationHandler>(ApiKeyAuthenticationHandler.SchemeName, null);
        var authorization = services.AddAuthorizationBuilder();
        // A key with the scope, or a signed-in user (the dashboard's cookie, SameSite=Lax) with the scope's role:
        // docs/security.md. The default scheme picks the key when one is presented.
        foreach (var scope in ApiScopes.All)
            authorization.AddPolicy(ApiScopes.PolicyName(scope), policy => policy
                .RequireAuthenticatedUser()
                .RequireAssertion(context => context.User.HasClaim(ApiScopes.ClaimType, scope)
                    || (ApiScopes.RoleFor(scope) is { } role && context.User.HasAtLeast(role))));

        services.AddIfiComplianceApi();
        services.AddIfiApiRateLimiting();
        // The document itself is registered with the collector API (AddOpenApi); this adds the key scheme to it.
        services.Configure<OpenApiOptions>("v1", options =>
        {
            options.AddDocumentTransformer<ApiKeySecurityTransformer>();
            options.AddOperationTransformer<ApiKeySecurityTransformer>();
        });
        return services;
    }

    public static WebApplication MapIfiApi(this WebApplication app)
    {
        // Authentication and authorization run before this (the host adds them first), so the limiter sees the key.
        app.UseRateLimiter();
        // Responses the framework ends without a body under /api/v1 (415 from content-type matching, 404, 405)
        // become problem documents too, so an API client always sees why.
        app.UseWhen(context => context.Request.Path.StartsWithSegments("/api/v1"), branch => branch.UseStatusCodePages());
        app.UseSwaggerUI(options =>
        {
            options.RoutePrefix = "api";
            options.SwaggerEndpoint("/openapi/v1.json", "IfiDashboard API v1");
            options.DocumentTitle = "IfiDashboard API reference";
        });

        var api = app.MapGroup("/api/v1").RequireRateLimiting(ApiRateLimiting.PolicyName);
        api.MapInstancesApi();
        api.MapApiKeysApi();
        api.MapComplianceApi();
        api.MapChangesApi();
        api.MapAuditApi();
        api.MapEvidenceReportApi();
        api.MapRemediationApi();
        api.MapCollectorsApi();
        api.MapCollectorAssignmentsApi();
        api.MapVerifyNowApi();
        return app;
    }
}
