using System.Net;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Standalone;

/// <summary>
/// Keeps a standalone collector polling through a server outage. Leases come from the server; while it cannot be
/// reached, the instances it last assigned to this collector are polled on the collector's own schedule for up to
/// <see cref="ServerConnectionOptions.OutageRideThroughMinutes"/> after the last contact (their snapshots wait in the
/// outbox, and the server takes them because this collector leased those instances last). Lease completions that
/// could not be sent are sent before the next lease once the server answers, so the server schedules each instance
/// where the collector did instead of finding every one of them due in the same second.
/// </summary>
public sealed class OutageRideThrough(CollectorApiClient server, ServerConnectionOptions options, TimeProvider time,
    ILogger<OutageRideThrough> logger) : IInstanceSource
{
    /// <summary>During an outage the server is tried at most this often, not at every idle check.</summary>
    public static readonly TimeSpan ServerRetryDuringOutage = TimeSpan.FromSeconds(10);

    /// <summary>An assignment not leased again for this many poll intervals has gone to another collector or been retired.</summary>
    const int IntervalsBeforeForgotten = 3;

    /// <summary>
    /// The shortest silence after which the server may give this collector's instances to another (the least
    /// <c>Ingestion:TakeoverDelay</c> it accepts). After a silence this long every assignment remembered from before it
    /// is forgotten until leased again, so that two collectors never poll the same instance in one ride-through.
    /// </summary>
    public static readonly TimeSpan SilenceThatMayEndTenure = TimeSpan.FromSeconds(10);

    readonly Lock _gate = new();
    readonly Dictionary<long, Assignment> _assigned = [];
    readonly Dictionary<long, DateTimeOffset> _unsentCompletions = [];
    DateTimeOffset? _lastContact;
    DateTimeOffset? _outageSince;
    DateTimeOffset _nextServerAttempt = DateTimeOffset.MinValue;

    sealed class Assignment(InstanceRegistration registration, DateTimeOffset leasedAt)
    {
        public InstanceRegistration Registration { get; } = registration;
        public DateTimeOffset LeasedAt { get; } = leasedAt;
        /// <summary>When this collector means to poll it next (set when a poll completes); null while a poll runs.</summary>
        public DateTimeOffset? NextPollAt { get; set; }
    }

    /// <summary>Completions waiting for the server, for tests and the outage log line.</summary>
    public int UnsentCompletions
    {
        get { lock (_gate) return _unsentCompletions.Count; }
    }

    public async Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount, TimeSpan leaseDuration,
        CancellationToken cancellationToken)
    {
        if (FromMemoryWithoutAsking(maxCount) is { } betweenAttempts)
            return betweenAttempts;
        try
        {
            var sent = await SendUnsentCompletionsAsync(collectorName, cancellationToken);
            var leased = await server.LeaseDueAsync(collectorName, maxCount, leaseDuration, cancellationToken);
            Contact(leased, sent);
            return leased;
        }
        catch (Exception e) when (IsOutage(e, cancellationToken) && FromMemory(maxCount, e) is { } remembered)
        {
            return remembered;
        }
    }

    public Task ReleaseAllAsync(string collectorName, CancellationToken cancellationToken) =>
        server.ReleaseAllAsync(collectorName, cancellationToken);

    public async Task CompleteAsync(long instanceId, string collectorName, DateTimeOffset nextPollAt, CancellationToken cancellationToken)
    {
        lock (_gate)
        {
            if (_assigned.TryGetValue(instanceId, out var assignment)) assignment.NextPollAt = nextPollAt;
        }
        try
        {
            await server.CompleteAsync(instanceId, collectorName, nextPollAt, cancellationToken);
        }
        catch (Exception e) when (IsOutage(e, cancellationToken))
        {
            // Sent before the next lease once the server answers; a later poll of the instance replaces it.
            lock (_gate) _unsentCompletions[instanceId] = nextPollAt;
        }
    }

    /// <summary>
    /// The server could not be reached or failed (no answer, a timeout, 5xx). A refused key (401, 403) or a lease
    /// limit (429) is an answer: polling on without the server's consent would hide it.
    /// </summary>
    static bool IsOutage(Exception e, CancellationToken cancellationToken) =>
        !cancellationToken.IsCancellationRequested && e switch
        {
            CollectorKeyRejectedException => false,
            HttpRequestException { StatusCode: null } => true,
            HttpRequestException { StatusCode: { } status } => (int)status >= 500,
            TaskCanceledException or TimeoutException => true,
            _ => false,
        };

    async Task<int> SendUnsentCompletionsAsync(string collectorName, CancellationToken cancellationToken)
    {
        List<KeyValuePair<long, DateTimeOffset>> unsent;
        lock (_gate) unsent = [.. _unsentCompletions];
        foreach (var (instanceId, nextPollAt) in unsent)
        {
            await server.CompleteAsync(instanceId, collectorName, nextPollAt, cancellationToken);
            lock (_gate)
            {
                // A poll that completed meanwhile queued a newer time: that one is sent next round.
                if (_unsentCompletions.TryGetValue(instanceId, out var queued) && queued == nextPollAt)
                    _unsentCompletions.Remove(instanceId);
            }
        }
        return unsent.Count;
    }

    void Contact(IReadOnlyList<InstanceRegistration> leased, int completionsSent)
    {
        var now = time.GetUtcNow();
        lock (_gate)
        {
            if (_outageSince is { } since)
                logger.LogWarning("The server answers again after {Minutes:0.#} min; {Completions} polls made meanwhile were reported and their snapshots are being delivered.",
                    (now - since).TotalMinutes, completionsSent);
            _outageSince = null;
            if (_lastContact is { } previous && now - previous >= SilenceThatMayEndTenure)
                _assigned.Clear();
            _lastContact = now;
            foreach (var instance in leased) _assigned[instance.Id] = new Assignment(instance, now);
            foreach (var stale in _assigned.Values
                         .Where(a => now - a.LeasedAt > TimeSpan.FromSeconds(Math.Max(1, a.Registration.PollIntervalSeconds) * IntervalsBeforeForgotten))
                         .Select(a => a.Registration.Id).ToList())
                _assigned.Remove(stale);
        }
    }

    /// <summary>During an outage, between attempts to reach the server: the remembered instances that are due.</summary>
    IReadOnlyList<InstanceRegistration>? FromMemoryWithoutAsking(int maxCount)
    {
        lock (_gate)
            return _outageSince is not null && time.GetUtcNow() < _nextServerAttempt && WithinRideThrough() ? Due(maxCount) : null;
    }

    /// <summary>The remembered instances that are due, or null (the caller rethrows) when there is nothing to ride through on.</summary>
    IReadOnlyList<InstanceRegistration>? FromMemory(int maxCount, Exception outage)
    {
        var now = time.GetUtcNow();
        lock (_gate)
        {
            _nextServerAttempt = now + ServerRetryDuringOutage;
            if (!WithinRideThrough())
            {
                if (_outageSince is not null && _lastContact is { } last)
                    logger.LogError("The server has not answered for {Minutes:0} min (Collector:OutageRideThroughMinutes is {Limit}): polling stops until it answers.",
                        (now - last).TotalMinutes, options.OutageRideThroughMinutes);
                _outageSince = null;
                _lastContact = null;
                _assigned.Clear();
                return null;
            }
            if (_outageSince is null)
            {
                _outageSince = now;
                logger.LogWarning("The server cannot be reached ({Reason}): polling the {Count} instances it last assigned for up to {Limit} min; snapshots wait in the outbox.",
                    outage.Message, _assigned.Count, options.OutageRideThroughMinutes);
            }
            return Due(maxCount);
        }
    }

    bool WithinRideThrough() =>
        _lastContact is { } last && options.OutageRideThroughMinutes > 0
        && time.GetUtcNow() - last <= TimeSpan.FromMinutes(options.OutageRideThroughMinutes);

    List<InstanceRegistration> Due(int maxCount)
    {
        var now = time.GetUtcNow();
        var due = _assigned.Values
            .Where(a => a.NextPollAt is { } next && next <= now)
            .OrderBy(a => a.NextPollAt)
            .Take(maxCount)
            .ToList();
        // Handed out: not again until its poll completes and sets the next time.
        foreach (var assignment in due) assignment.NextPollAt = null;
        return due.Select(a => a.Registration).ToList();
    }
}
