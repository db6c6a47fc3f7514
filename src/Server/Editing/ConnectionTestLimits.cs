using IfiDashboard.Collector.Probes;
using IfiDashboard.Server.Security;
using IfiDashboard.Store.Audit;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Editing;

/// <summary>Section "TestConnection": how many connection tests one person (or address) may run per window.</summary>
public sealed class ConnectionTestOptions
{
    public const string Section = "TestConnection";

    public int PermitLimit { get; set; } = 10;
    public int WindowSeconds { get; set; } = 60;
}

/// <summary>
/// What keeps Test connection from being a port scanner: a fixed window per signed-in user, or per remote address
/// for anyone else (<see cref="ActorRateLimiter"/>), and
/// one answer for every way of not reaching a SQL Server (closed, filtered, not SQL Server), with the detail in the
/// server log only.
/// </summary>
public sealed class ConnectionTestLimits(IOptions<ConnectionTestOptions> settings, AuditActors actors, ILogger<ConnectionTestLimits> logger)
    : IDisposable
{
    readonly ConnectionTestOptions options = settings.Value;

    public const string NotReached =
        "No SQL Server answered at this address and port (closed, filtered or not SQL Server). The server log has the details.";

    readonly ActorRateLimiter _limiter = new(settings.Value.PermitLimit, settings.Value.WindowSeconds);

    /// <summary>Takes one test from the current person's allowance; throws when it is used up.</summary>
    public void Acquire()
    {
        var actor = actors.Current();
        if (_limiter.TryAcquire(actor, out var retryAfter))
            return;
        logger.LogWarning("Connection test refused for {Actor} from {Address}: over the limit of {Permits} per {Window} s",
            actor.Name, actor.RemoteAddress, options.PermitLimit, options.WindowSeconds);
        throw new TooManyConnectionTestsException(retryAfter);
    }

    /// <summary>
    /// The result as the person sees it: a probe that found nothing listening, timed out or met something that is not
    /// SQL Server says the same generic text; what actually happened goes to the log.
    /// </summary>
    public InstanceSnapshot Redact(InstanceSnapshot snapshot, string host, int? port)
    {
        if (!snapshot.Probes.Any(IsNotReached))
            return snapshot;
        foreach (var probe in snapshot.Probes.Where(IsNotReached))
            logger.LogInformation("Connection test to {Host}:{Port}: {Probe} {Outcome}: {Message}",
                host, port, probe.Probe, probe.Outcome, probe.Message);
        return snapshot with
        {
            Probes = snapshot.Probes
                .Select(p => IsNotReached(p) ? new ProbeOutcome(p.Probe, OutcomeClass.Unreachable, NotReached) : p)
                .ToList(),
        };
    }

    static bool IsNotReached(ProbeOutcome probe) =>
        probe.Probe == ProbeNames.Connect && probe.Outcome is OutcomeClass.Unreachable or OutcomeClass.Timeout or OutcomeClass.ProtocolError;

    public void Dispose() => _limiter.Dispose();
}
