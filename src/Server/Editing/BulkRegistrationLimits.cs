using IfiDashboard.Server.Security;
using IfiDashboard.Store.Audit;
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
/// once, so it is limited per caller like Test connection (<see cref="ConnectionTestLimits"/>). A dry run or a preview
/// writes nothing and is free.
/// </summary>
public sealed class BulkRegistrationLimits(IOptions<BulkRegistrationOptions> settings, AuditActors actors, ILogger<BulkRegistrationLimits> logger)
    : IDisposable
{
    readonly BulkRegistrationOptions options = settings.Value;
    readonly ActorRateLimiter _limiter = new(settings.Value.PermitLimit, settings.Value.WindowSeconds);

    /// <summary>Takes one bulk registration from the current caller's allowance; throws when it is used up.</summary>
    public void Acquire()
    {
        var caller = actors.Current();
        if (_limiter.TryAcquire(caller, out var retryAfter))
            return;
        logger.LogWarning("Bulk registration refused for {Actor} from {Address}: over the limit of {Permits} per {Window} s",
            caller.Name, caller.RemoteAddress, options.PermitLimit, options.WindowSeconds);
        throw new TooManyBulkRegistrationsException(retryAfter, options);
    }

    public void Dispose() => _limiter.Dispose();
}
