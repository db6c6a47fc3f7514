using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Server.Security;
using IfiDashboard.Store.Audit;
using Microsoft.Extensions.Options;
using IfiDashboard.Store.Ingestion;

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
        var request = context.HttpContext;
        var presented = request.Request.Headers[IngestionOptions.ApiKeyHeader].ToString();
        if (presented.Length == 0)
            return await RefuseAsync(request, StatusCodes.Status401Unauthorized, "API key required",
                $"Send the collector's key in the {IngestionOptions.ApiKeyHeader} header.", "no key");

        var identity = ConfiguredKey(presented);
        if (identity is null)
        {
            var stored = storedKeys is null ? null : await storedKeys.AuthenticateAsync(presented, request.RequestAborted);
            if (stored is null)
                return await RefuseAsync(request, StatusCodes.Status401Unauthorized, "API key rejected",
                    "The API key is not valid for the collector API.", "key not valid");
            if (!stored.Scopes.Contains(ApiScopes.SnapshotIngest))
                return await RefuseAsync(request, StatusCodes.Status403Forbidden, "Scope missing",
                    $"The API key '{stored.KeyId}' does not have the scope '{ApiScopes.SnapshotIngest}' the collector API needs.",
                    $"key {stored.KeyId} without {ApiScopes.SnapshotIngest}");
            if (stored.CollectorName is null)
                return await RefuseAsync(request, StatusCodes.Status403Forbidden, "Key not bound to a collector",
                    $"The API key '{stored.KeyId}' belongs to no collector: issue a key for the collector with --collector <Collector:Name> and revoke this one.",
                    $"key {stored.KeyId} bound to no collector");
            identity = new CollectorIdentity(stored.CollectorName, stored.KeyId);
        }
        context.HttpContext.Items[typeof(CollectorIdentity)] = identity;
        return await next(context);
    }

    /// <summary>A request no collector is known for yet: anyone can send one, so it is counted, never an entry each.</summary>
    static async Task<IResult> RefuseAsync(HttpContext context, int status, string title, string detail, string reason)
    {
        await context.RequestServices.GetRequiredService<AuditLog>().CountRefusalAsync(AuditActions.CollectorRefused,
            new AuditActor(AuditActors.Anonymous, context.Connection.RemoteIpAddress?.ToString()), reason, context.RequestAborted);
        return TypedResults.Problem(detail, statusCode: status, title: title);
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
