using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Server.Api.Auth;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Ingestion;

/// <summary>
/// Lets a request through with a configured collector key (compared in constant time), or with a stored API key
/// holding the <c>snapshot:ingest</c> scope when the REST API is registered.
/// </summary>
public sealed class ApiKeyFilter(IOptionsMonitor<IngestionOptions> options, ApiKeyAuthenticator? storedKeys = null) : IEndpointFilter
{
    public async ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var presented = context.HttpContext.Request.Headers[IngestionOptions.ApiKeyHeader].ToString();
        if (presented.Length == 0)
            return TypedResults.Problem($"Send the collector's key in the {IngestionOptions.ApiKeyHeader} header.",
                statusCode: StatusCodes.Status401Unauthorized, title: "API key required");
        var presentedBytes = Encoding.UTF8.GetBytes(presented);
        var accepted = options.CurrentValue.ApiKeys.Any(key =>
            CryptographicOperations.FixedTimeEquals(presentedBytes, Encoding.UTF8.GetBytes(key)));
        if (accepted)
            return await next(context);

        var stored = storedKeys is null ? null : await storedKeys.AuthenticateAsync(presented, context.HttpContext.RequestAborted);
        if (stored is null)
            return TypedResults.Problem("The API key is not valid for the collector API.",
                statusCode: StatusCodes.Status401Unauthorized, title: "API key rejected");
        if (!stored.Scopes.Contains(ApiScopes.SnapshotIngest))
            return TypedResults.Problem($"The API key '{stored.KeyId}' does not have the scope '{ApiScopes.SnapshotIngest}' the collector API needs.",
                statusCode: StatusCodes.Status403Forbidden, title: "Scope missing");
        return await next(context);
    }
}
