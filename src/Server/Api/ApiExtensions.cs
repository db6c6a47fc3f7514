using IfiDashboard.Shared.Security;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Audit;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Server.Collection;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Remediation;
using IfiDashboard.Server.Reports;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Server.Api.Compliance;
using IfiDashboard.Server.Http;
using IfiDashboard.Server.Api.Inventory;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.OpenApi;
using IfiDashboard.Server.Api.Policy;
using IfiDashboard.Store.ApiKeys;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.RateLimits;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.OpenApi;

namespace IfiDashboard.Server.Api;

/// <summary>The REST API under /api/v1 (inventory, API keys), its key authentication, rate limits and reference page.</summary>
public static class ApiExtensions
{
    public static IServiceCollection AddIfiApi(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddIfiModule(IfiModuleNames.Api, IfiModuleNames.Store, IfiModuleNames.Compliance, IfiModuleNames.EmbeddedCollector,
            IfiModuleNames.Editing, IfiModuleNames.Alerts, IfiModuleNames.Ingestion, IfiModuleNames.CollectorAssignments,
            IfiModuleNames.SignIn);
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
        services.AddSingleton<RateLimitCounters>();
        // The one OpenAPI document (/openapi/v1.json): this API and the collectors' (AddIfiIngestion), with the key scheme.
        services.AddOpenApi(options =>
        {
            options.AddDocumentTransformer<ApiKeySecurityTransformer>();
            options.AddOperationTransformer<ApiKeySecurityTransformer>();
            options.AddOperationTransformer<ContractOperationTransformer>();
            options.AddDocumentTransformer<ContractDocumentTransformer>();
            options.AddSchemaTransformer<ContractSchemaTransformer>();
        });
        // The document's schemas follow these options: bodies are read with ApiJson.Strict, which refuses numbers in
        // strings, so the document must not promise them (the web defaults would type each number integer-or-string).
        services.ConfigureHttpJsonOptions(options => options.SerializerOptions.NumberHandling = ApiJson.Strict.NumberHandling);
        return services;
    }

    public static WebApplication MapIfiApi(this WebApplication app)
    {
        // Responses the framework ends without a body under /api/v1 (415 from content-type matching, 404, 405)
        // become problem documents too, so an API client always sees why.
        app.UseWhen(context => context.Request.Path.StartsWithSegments("/api/v1"), branch => branch.UseStatusCodePages());
        // With the scope's metadata the API key scheme answers for it, so a key with `read` fetches the contract.
        app.MapOpenApi().RequireScope(ApiScopes.Read);
        app.UseSwaggerUI(options =>
        {
            options.RoutePrefix = "api";
            options.SwaggerEndpoint("/openapi/v1.json", "IfiDashboard API v1");
            options.DocumentTitle = "IfiDashboard API reference";
        });

        // An endpoint filter runs after authentication and authorization, so the limit is counted against the key.
        var api = app.MapGroup("/api/v1").AddEndpointFilter<ApiRateLimiting>();
        api.MapInstancesApi();
        api.MapApiKeysApi();
        api.MapComplianceApi();
        api.MapChangesApi();
        api.MapChangeWebhooksApi();
        api.MapAuditApi();
        api.MapEvidenceReportApi();
        api.MapRemediationApi();
        api.MapCollectorsApi();
        api.MapCollectorAssignmentsApi();
        api.MapVerifyNowApi();
        api.MapPolicyApi();
        return app;
    }
}
