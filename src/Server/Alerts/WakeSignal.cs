namespace IfiDashboard.Server.Alerts;

/// <summary>
/// Wakes a background loop early. The loop arms the signal before it works, so a wake that arrives while it works
/// makes it go round once more instead of being lost.
/// </summary>
internal sealed class WakeSignal
{
    TaskCompletionSource _current = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public void Set() => Volatile.Read(ref _current).TrySetResult();

    public Task Arm()
    {
        var fresh = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Interlocked.Exchange(ref _current, fresh);
        return fresh.Task;
    }

    /// <summary>Waits for <paramref name="signal"/> or <paramref name="timeout"/> on <paramref name="time"/>, whichever is first.</summary>
    public static async Task WaitAsync(Task signal, TimeSpan timeout, TimeProvider time, CancellationToken ct)
    {
        if (timeout <= TimeSpan.Zero) return;
        using var cancelDelay = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var delay = Task.Delay(timeout, time, cancelDelay.Token);
        await Task.WhenAny(signal, delay);
        await cancelDelay.CancelAsync();
        ct.ThrowIfCancellationRequested();
    }
}
