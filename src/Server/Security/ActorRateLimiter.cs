using System.Threading.RateLimiting;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Server.Security;

/// <summary>
/// A fixed window per person (or API key), or per remote address for anyone not signed in: System.Threading.RateLimiting,
/// the limiter behind ASP.NET Core's rate limiting middleware, for acts a page takes over its circuit as well as through
/// a request (a connection test, "verify now"), where the middleware does not see them.
/// </summary>
public sealed class ActorRateLimiter(int permitLimit, int windowSeconds) : IDisposable
{
    readonly PartitionedRateLimiter<string> _limiter = PartitionedRateLimiter.Create<string, string>(who =>
        RateLimitPartition.GetFixedWindowLimiter(who, _ => new FixedWindowRateLimiterOptions
        {
            PermitLimit = permitLimit,
            Window = TimeSpan.FromSeconds(windowSeconds),
            QueueLimit = 0,
        }));

    /// <summary>Takes one permit from the actor's window; false, with when to retry if known, when it is used up.</summary>
    public bool TryAcquire(AuditActor actor, out TimeSpan? retryAfter)
    {
        var who = actor.Name == AuditActors.Anonymous ? "address:" + actor.RemoteAddress : "user:" + actor.Name;
        using var lease = _limiter.AttemptAcquire(who);
        retryAfter = !lease.IsAcquired && lease.TryGetMetadata(MetadataName.RetryAfter, out var after) ? after : null;
        return lease.IsAcquired;
    }

    public void Dispose() => _limiter.Dispose();
}
