using IfiDashboard.Server.Security;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace IfiDashboard.Server.OpenApi;

/// <summary>
/// Documents the API key scheme, and on each key-protected operation the scope it needs, so the reference page
/// can send a key and readers see what each key may do.
/// </summary>
internal sealed class ApiKeySecurityTransformer : IOpenApiDocumentTransformer, IOpenApiOperationTransformer
{
    const string SchemeId = "ApiKey";

    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        document.Info.Title = "IfiDashboard API";
        document.Info.Description =
            "Inventory for CMDB sync, compliance evidence and a changes feed for integrations. Send an API key in the X-Api-Key header; each operation names " +
            "the scope it needs. Errors are RFC 7807 problem documents; see docs/api.md.";
        document.Components ??= new OpenApiComponents();
        document.Components.SecuritySchemes ??= new Dictionary<string, IOpenApiSecurityScheme>();
        document.Components.SecuritySchemes[SchemeId] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.ApiKey,
            In = ParameterLocation.Header,
            Name = ApiKeyAuthenticationHandler.HeaderName,
            Description = "An API key (create one with `api-key create` or POST /api/v1/api-keys). " +
                          "The collector API takes a key bound to one collector: Ingestion:ApiKeys:<Collector:Name>, or an API key with snapshot:ingest issued for it.",
        };
        return Task.CompletedTask;
    }

    public Task TransformAsync(OpenApiOperation operation, OpenApiOperationTransformerContext context, CancellationToken cancellationToken)
    {
        var scope = context.Description.ActionDescriptor.EndpointMetadata.OfType<RequiredScope>().FirstOrDefault();
        var isCollector = context.Description.RelativePath?.StartsWith("api/v1/collector", StringComparison.Ordinal) == true;
        if (scope is null && !isCollector)
            return Task.CompletedTask;

        operation.Security ??= [];
        operation.Security.Add(new OpenApiSecurityRequirement { [new OpenApiSecuritySchemeReference(SchemeId, context.Document)] = [] });
        var needs = scope is null ? "Requires the key of the collector the request names (Ingestion:ApiKeys:<Collector:Name>, or snapshot:ingest issued for it)." : $"Requires an API key with the scope `{scope.Scope}`.";
        operation.Description = string.IsNullOrEmpty(operation.Description) ? needs : operation.Description + " " + needs;
        return Task.CompletedTask;
    }
}
