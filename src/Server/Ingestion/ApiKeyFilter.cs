using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Ingestion;

/// <summary>Lets a request through only with a configured collector key, compared in constant time.</summary>
public sealed class ApiKeyFilter(IOptionsMonitor<IngestionOptions> options) : IEndpointFilter
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
        if (!accepted)
            return TypedResults.Problem("The API key is not valid for the collector API.",
                statusCode: StatusCodes.Status401Unauthorized, title: "API key rejected");
        return await next(context);
    }
}
