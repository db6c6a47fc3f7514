using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Server.Api.Auth;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Ingestion;

/// <summary>The collector a request's key belongs to: configured (<c>Ingestion:ApiKeys:&lt;name&gt;</c>) or stored.</summary>
public sealed record CollectorIdentity(string CollectorName, string KeyId)
{
    public static CollectorIdentity Of(HttpContext context) =>
        context.Items[typeof(CollectorIdentity)] as CollectorIdentity
        ?? throw new InvalidOperationException("The collector key filter did not run.");
}

/// <summary>
/// Lets a request through with a configured collector key (compared in constant time), or with a stored API key
/// holding the <c>snapshot:ingest</c> scope and issued for a collector, and tells the endpoint which collector it is.
/// </summary>
public sealed class CollectorKeyFilter(IOptionsMonitor<IngestionOptions> options, ApiKeyAuthenticator? storedKeys = null) : IEndpointFilter
{
    public async ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var presented = context.HttpContext.Request.Headers[IngestionOptions.ApiKeyHeader].ToString();
        if (presented.Length == 0)
            return TypedResults.Problem($"Send the collector's key in the {IngestionOptions.ApiKeyHeader} header.",
                statusCode: StatusCodes.Status401Unauthorized, title: "API key required");

        var identity = ConfiguredKey(presented);
        if (identity is null)
        {
            var stored = storedKeys is null ? null : await storedKeys.AuthenticateAsync(presented, context.HttpContext.RequestAborted);
            if (stored is null)
                return TypedResults.Problem("The API key is not valid for the collector API.",
                    statusCode: StatusCodes.Status401Unauthorized, title: "API key rejected");
            if (!stored.Scopes.Contains(ApiScopes.SnapshotIngest))
                return TypedResults.Problem($"The API key '{stored.KeyId}' does not have the scope '{ApiScopes.SnapshotIngest}' the collector API needs.",
                    statusCode: StatusCodes.Status403Forbidden, title: "Scope missing");
            if (stored.CollectorName is null)
                return TypedResults.Problem($"The API key '{stored.KeyId}' belongs to no collector: issue a key for the collector with --collector <Collector:Name> and revoke this one.",
                    statusCode: StatusCodes.Status403Forbidden, title: "Key not bound to a collector");
            identity = new CollectorIdentity(stored.CollectorName, stored.KeyId);
        }
        context.HttpContext.Items[typeof(CollectorIdentity)] = identity;
        return await next(context);
    }

    CollectorIdentity? ConfiguredKey(string presented)
    {
        // Hashing both sides first makes each comparison constant-time whatever the lengths.
        var presentedHash = SHA256.HashData(Encoding.UTF8.GetBytes(presented));
        CollectorIdentity? match = null;
        foreach (var (collector, key) in options.CurrentValue.ApiKeys)
            if (CryptographicOperations.FixedTimeEquals(presentedHash, SHA256.HashData(Encoding.UTF8.GetBytes(key))))
                match = new CollectorIdentity(collector, $"Ingestion:ApiKeys:{collector}");
        return match;
    }
}
