using System.Threading.RateLimiting;
using IfiDashboard.Server.Store.Audit;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Editing;

/// <summary>Section "BulkRegistration": how many syncs and CSV imports that write one caller may send per window.</summary>
public sealed class BulkRegistrationOptions
{
    public const string Section = "BulkRegistration";

    public int PermitLimit { get; set; } = 20;
    public int WindowSeconds { get; set; } = 3600;
}

/// <summary>
/// A fixed window of permits per caller: a signed-in person or API key by name, anyone else by remote address
/// (System.Threading.RateLimiting, the limiter behind ASP.NET Core's rate limiting middleware). Test connection and
/// bulk registration each keep one.
/// </summary>
public sealed class PerCallerLimiter(int permitLimit, int windowSeconds, AuditActors actors) : IDisposable
{
    readonly PartitionedRateLimiter<string> _limiter = PartitionedRateLimiter.Create<string, string>(who =>
        RateLimitPartition.GetFixedWindowLimiter(who, _ => new FixedWindowRateLimiterOptions
        {
            PermitLimit = permitLimit,
            Window = TimeSpan.FromSeconds(windowSeconds),
            QueueLimit = 0,
        }));

    /// <summary>Takes one permit from the current caller's window: who the caller is, and when to retry if refused.</summary>
    public (bool Acquired, AuditActor Caller, TimeSpan? RetryAfter) TryAcquire()
    {
        var actor = actors.Current();
        var who = actor.Name == AuditActors.Anonymous ? "address:" + actor.RemoteAddress : "user:" + actor.Name;
        using var lease = _limiter.AttemptAcquire(who);
        return (lease.IsAcquired, actor, lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter) ? retryAfter : null);
    }

    public void Dispose() => _limiter.Dispose();
}

/// <summary>
/// Registration in bulk (a CMDB sync, a CSV import) puts up to thousands of addresses in front of the collector at
/// once, so it is limited per caller like Test connection (<see cref="ConnectionTestLimits"/>). A dry run or a preview
/// writes nothing and is free.
/// </summary>
public sealed class BulkRegistrationLimits(IOptions<BulkRegistrationOptions> settings, AuditActors actors, ILogger<BulkRegistrationLimits> logger)
    : IDisposable
{
    readonly BulkRegistrationOptions options = settings.Value;
    readonly PerCallerLimiter _limiter = new(settings.Value.PermitLimit, settings.Value.WindowSeconds, actors);

    /// <summary>Takes one bulk registration from the current caller's allowance; throws when it is used up.</summary>
    public void Acquire()
    {
        var (acquired, caller, retryAfter) = _limiter.TryAcquire();
        if (acquired)
            return;
        logger.LogWarning("Bulk registration refused for {Actor} from {Address}: over the limit of {Permits} per {Window} s",
            caller.Name, caller.RemoteAddress, options.PermitLimit, options.WindowSeconds);
        throw new TooManyBulkRegistrationsException(retryAfter, options);
    }

    public void Dispose() => _limiter.Dispose();
}
