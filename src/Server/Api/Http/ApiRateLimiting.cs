using System.Globalization;
using System.Security.Claims;
using System.Threading.RateLimiting;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Api.Http;

/// <summary>
/// A fixed window per API key (<c>Api:RateLimit</c>). It runs after authorization, so every request it sees carries
/// a known key; a rejected one is answered 429 with Retry-After.
/// </summary>
internal static class ApiRateLimiting
{
    public const string PolicyName = "api-key";

    public static IServiceCollection AddIfiApiRateLimiting(this IServiceCollection services)
    {
        services.AddRateLimiter(limiter =>
        {
            limiter.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
            limiter.AddPolicy(PolicyName, context =>
            {
                var options = context.RequestServices.GetRequiredService<IOptionsMonitor<ApiOptions>>().CurrentValue.RateLimit;
                var partition = context.User.FindFirstValue(ClaimTypes.NameIdentifier)
                                ?? "address:" + context.Connection.RemoteIpAddress;
                return RateLimitPartition.GetFixedWindowLimiter(partition, _ => new FixedWindowRateLimiterOptions
                {
                    PermitLimit = options.PermitLimit,
                    Window = TimeSpan.FromSeconds(options.WindowSeconds),
                    QueueLimit = 0,
                });
            });
            limiter.OnRejected = (context, _) =>
            {
                var detail = "This API key has used up its requests for the current window.";
                if (context.Lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter))
                {
                    var seconds = Math.Max(1, (int)Math.Ceiling(retryAfter.TotalSeconds));
                    context.HttpContext.Response.Headers.RetryAfter = seconds.ToString(CultureInfo.InvariantCulture);
                    detail += $" Retry after {seconds} s.";
                }
                return new ValueTask(ApiProblems.WriteAsync(context.HttpContext, StatusCodes.Status429TooManyRequests,
                    "Too many requests", detail));
            };
        });
        return services;
    }
}
