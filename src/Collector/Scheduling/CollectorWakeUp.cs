namespace IfiDashboard.Collector.Scheduling;

/// <summary>
/// Ends the embedded collector's idle wait at once when an instance is made due now ("verify now"), instead of at its
/// next <see cref="Connections.CollectorOptions.IdleCheckSeconds"/> look. The collector takes <see cref="Next"/> before
/// it leases, so a wake-up that arrives between a lease that found nothing and the start of the wait is not missed.
/// </summary>
public sealed class CollectorWakeUp
{
    TaskCompletionSource _next = new(TaskCreationOptions.RunContinuationsAsynchronously);
    long _requests;

    /// <summary>Completes at the next <see cref="Wake"/> or <see cref="Recheck"/>.</summary>
    public Task Next => Volatile.Read(ref _next).Task;

    /// <summary>How many times instances were made due now: a poll that saw this change may have been asked for again.</summary>
    public long Requests => Interlocked.Read(ref _requests);

    /// <summary>Instances were made due now.</summary>
    public void Wake()
    {
        Interlocked.Increment(ref _requests);
        Recheck();
    }

    /// <summary>Look for due instances again, without counting as a request: after a lease a request came during
    /// completed (it is due again then), so one request never sets off a chain of wake-ups.</summary>
    public void Recheck() =>
        Interlocked.Exchange(ref _next, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();

    /// <summary>Waits for <paramref name="idle"/> or until <paramref name="woken"/> completes, whichever comes first.</summary>
    public static async Task IdleAsync(Task woken, TimeSpan idle, TimeProvider time, CancellationToken cancellationToken)
    {
        using var idleOver = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var delay = Task.Delay(idle, time, idleOver.Token);
        await Task.WhenAny(woken, delay);
        await idleOver.CancelAsync();
        cancellationToken.ThrowIfCancellationRequested();
    }
}
