using System.Globalization;
using System.Security.Claims;
using IfiDashboard.Store.RateLimits;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Http;

/// <summary>
/// A fixed window per API key (<c>Api:RateLimit</c>), counted in the store (<see cref="RateLimitCounters"/>): servers
/// sharing a store share each key's limit, instead of allowing it once per server. It runs after authorization, so every
/// request it sees carries a known key (or a signed-in person); each answer carries the IETF draft's
/// <c>RateLimit-Policy</c> and <c>RateLimit</c> headers, and one over the limit is 429 with Retry-After and changes nothing.
/// </summary>
internal sealed class ApiRateLimiting(RateLimitCounters counters, IOptionsMonitor<ApiOptions> options, TimeProvider time) : IEndpointFilter
{
    /// <summary>The policy's name in the headers.</summary>
    public const string PolicyName = "api-key";

    public async ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var http = context.HttpContext;
        var limit = options.CurrentValue.RateLimit;
        var window = TimeSpan.FromSeconds(limit.WindowSeconds);
        var now = time.GetUtcNow();
        var partition = http.User.FindFirstValue(ClaimTypes.NameIdentifier) ?? "address:" + http.Connection.RemoteIpAddress;

        var (used, windowStart) = await counters.CountAsync(partition, now, window, http.RequestAborted);
        var resetSeconds = Math.Max(1, (int)Math.Ceiling((windowStart + window - now).TotalSeconds));
        var headers = http.Response.Headers;
        headers["RateLimit-Policy"] = $"\"{PolicyName}\";q={limit.PermitLimit};w={limit.WindowSeconds}";
        headers["RateLimit"] = $"\"{PolicyName}\";r={Math.Max(0, limit.PermitLimit - used)};t={resetSeconds}";
        if (used <= limit.PermitLimit)
            return await next(context);

        headers.RetryAfter = resetSeconds.ToString(CultureInfo.InvariantCulture);
        return TypedResults.Problem($"This API key has used up its requests for the current window. Retry after {resetSeconds} s.",
            statusCode: StatusCodes.Status429TooManyRequests, title: "Too many requests");
    }
}
