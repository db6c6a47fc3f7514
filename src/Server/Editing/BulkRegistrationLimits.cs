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
/// Registration in bulk (a CMDB sync, a CSV import) puts up to thousands of addresses in front of the collector at
/// once, so it is limited per caller like Test connection (<see cref="ConnectionTestLimits"/>): a fixed window per API
/// key or signed-in person, or per remote address for anyone else. A dry run or a preview writes nothing and is free.
/// </summary>
public sealed class BulkRegistrationLimits(IOptions<BulkRegistrationOptions> settings, AuditActors actors, ILogger<BulkRegistrationLimits> logger)
    : IDisposable
{
    readonly BulkRegistrationOptions options = settings.Value;

    readonly PartitionedRateLimiter<string> _limiter = PartitionedRateLimiter.Create<string, string>(who =>
        RateLimitPartition.GetFixedWindowLimiter(who, _ => new FixedWindowRateLimiterOptions
        {
            PermitLimit = settings.Value.PermitLimit,
            Window = TimeSpan.FromSeconds(settings.Value.WindowSeconds),
            QueueLimit = 0,
        }));

    /// <summary>Takes one bulk registration from the current caller's allowance; throws when it is used up.</summary>
    public void Acquire()
    {
        var actor = actors.Current();
        var who = actor.Name == AuditActors.Anonymous ? "address:" + actor.RemoteAddress : "user:" + actor.Name;
        using var lease = _limiter.AttemptAcquire(who);
        if (lease.IsAcquired)
            return;
        logger.LogWarning("Bulk registration refused for {Actor} from {Address}: over the limit of {Permits} per {Window} s",
            actor.Name, actor.RemoteAddress, options.PermitLimit, options.WindowSeconds);
        throw new TooManyBulkRegistrationsException(
            lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter) ? retryAfter : null, options);
    }

    public void Dispose() => _limiter.Dispose();
}
