using System.Security.Claims;
using IfiDashboard.Client.Components;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Server.Security;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Security;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Collection;

/// <summary>Section "VerifyNow": how many instances one request may name, and how many requests a person or key makes per window.</summary>
public sealed class VerifyNowOptions
{
    public const string Section = "VerifyNow";

    public int MaxInstances { get; set; } = 200;
    public int PermitLimit { get; set; } = 10;
    public int WindowSeconds { get; set; } = 60;
}

/// <summary>
/// "Verify now" (docs/api.md): the one path behind the pages' button and the API. Bounded, then rate-limited per
/// person or key, then the instances are made due in the store with the audit entry (<see cref="PollRequests"/>) and
/// the embedded collector is woken (<see cref="CollectorWakeUp"/>); standalone collectors find them at their next
/// lease request (<c>Collector:IdleCheckSeconds</c>, 1 s). A refusal changes and records nothing.
/// </summary>
public sealed class VerifyNow(PollRequests requests, CollectorWakeUp wakeUp, IFleetAssessments assessments,
    IOptions<VerifyNowOptions> settings, ILogger<VerifyNow> logger) : IVerifyNow, IDisposable
{
    readonly VerifyNowOptions _options = settings.Value;
    readonly ActorRateLimiter _limiter = new(settings.Value.PermitLimit, settings.Value.WindowSeconds);

    public int MaxInstances => _options.MaxInstances;

    /// <summary>From a page's circuit: the person must be an Operator; ids no longer assessed are left out.</summary>
    public async Task<VerifyNowAnswer> RequestAsync(ClaimsPrincipal user, IReadOnlyList<long> instanceIds, string scope,
        CancellationToken cancellationToken)
    {
        if (!user.HasAtLeast(DashboardRoles.Operator))
            return Refused(VerifyNowRefusal.Forbidden, "Only Operators and Administrators may ask for a poll.");
        // A circuit has no request: the person is who signed in to it; the address is not known there.
        var actor = new AuditActor(user.Identity?.Name is { Length: > 0 } name ? name : AuditActors.Anonymous, null);
        var fleet = await assessments.GetAsync(cancellationToken);
        var instances = instanceIds.Distinct().Select(fleet.Find).OfType<InstanceAssessment>().ToList();
        return await RequestAsync(instances, scope, actor, cancellationToken);
    }

    /// <summary>For assessed instances the caller has already resolved and is allowed to poll.</summary>
    public async Task<VerifyNowAnswer> RequestAsync(IReadOnlyList<InstanceAssessment> instances, string scope, AuditActor actor,
        CancellationToken cancellationToken)
    {
        if (instances.Count == 0)
            return Refused(VerifyNowRefusal.OutOfBounds, "No active instance to poll.");
        if (instances.Count > _options.MaxInstances)
            return Refused(VerifyNowRefusal.OutOfBounds,
                $"{instances.Count} instances are more than one request may poll (VerifyNow:MaxInstances, {_options.MaxInstances}): narrow the view.");
        if (!_limiter.TryAcquire(actor, out var retryAfter))
        {
            logger.LogWarning("Verify now refused for {Actor}: over the limit of {Permits} per {Window} s",
                actor.Name, _options.PermitLimit, _options.WindowSeconds);
            var wait = Math.Max(1, Math.Ceiling((retryAfter ?? TimeSpan.FromSeconds(_options.WindowSeconds)).TotalSeconds));
            return Refused(VerifyNowRefusal.TooOften, $"Too many requests to verify: try again in {wait:0} seconds.",
                TimeSpan.FromSeconds(wait));
        }
        var requestedAt = await requests.RequestAsync(
            instances.Select(i => (i.Registration.Id, i.Registration.Name)).ToList(), scope, actor, cancellationToken);
        wakeUp.Wake();
        return new VerifyNowAnswer(requestedAt, instances.Count, null, instances is [var one]
            ? $"Polling {one.Registration.Name} now."
            : $"Polling {instances.Count} instances now.");
    }

    static VerifyNowAnswer Refused(VerifyNowRefusal refusal, string message, TimeSpan? retryAfter = null) =>
        new(default, 0, refusal, message, retryAfter);

    public void Dispose() => _limiter.Dispose();
}
