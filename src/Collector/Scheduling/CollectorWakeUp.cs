namespace IfiDashboard.Collector.Scheduling;

/// <summary>
/// Ends the embedded collector's idle wait at once when an instance is made due now ("verify now"), instead of at its
/// next <see cref="Connections.CollectorOptions.IdleCheckSeconds"/> look. The collector takes <see cref="Next"/> before
/// it leases, so a wake-up that arrives between a lease that found nothing and the start of the wait is not missed.
/// </summary>
public sealed class CollectorWakeUp
{
    TaskCompletionSource _next = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes at the next <see cref="Wake"/>.</summary>
    public Task Next => Volatile.Read(ref _next).Task;

    public void Wake() =>
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
