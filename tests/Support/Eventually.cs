namespace IfiDashboard.Tests.Support;

/// <summary>
/// Bounded waiting for something another thread or process does: a condition checked until a deadline, never a fixed
/// sleep. The deadline is a safety net for a loaded machine, not a measure of speed.
/// </summary>
public static class Eventually
{
    public static async Task<T> WaitAsync<T>(Func<T> read, Func<T, bool> done, int seconds = 60)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        var value = read();
        while (!done(value) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(50);
            value = read();
        }
        return value;
    }

    /// <param name="every">
    /// How long to leave between reads (50 ms unless given). A read that makes another process work (HTTP requests to a
    /// server, a query of a store) while the awaited change takes seconds to come reads once a second or so: read every
    /// 50 ms, a few such waits kept both cores of a loaded machine busy answering the test.
    /// </param>
    public static async Task<T> WaitAsync<T>(Func<Task<T>> read, Func<T, bool> done, int seconds = 60, TimeSpan? every = null)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        var value = await read();
        while (!done(value) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(every ?? TimeSpan.FromMilliseconds(50));
            value = await read();
        }
        return value;
    }
}
