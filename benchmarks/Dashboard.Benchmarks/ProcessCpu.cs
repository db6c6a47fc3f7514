using System.Globalization;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// CPU time the kernel charged to processes (user + system, /proc/PID/stat), to say whose work a latency waited on:
/// the server's, or the browser's (Chromium and its driver: every process this benchmark started other than the server).
/// </summary>
internal static class ProcessCpu
{
    const double TicksPerSecond = 100; // USER_HZ on Linux

    public static double Milliseconds(int pid) => Ticks(pid) / TicksPerSecond * 1000;

    /// <summary>
    /// Waits until the process used under 5 % of a core over a second, or <paramref name="timeout"/> passed;
    /// returns how long it waited and whether it fell quiet.
    /// </summary>
    public static async Task<(TimeSpan Waited, bool Quiet)> UntilQuietAsync(int pid, TimeSpan timeout)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var before = Milliseconds(pid);
        while (clock.Elapsed < timeout)
        {
            await Task.Delay(1000);
            var now = Milliseconds(pid);
            if (now - before < 50) return (clock.Elapsed, true);
            before = now;
        }
        return (clock.Elapsed, false);
    }

    /// <summary>CPU of a process and its children (PostgreSQL's postmaster and its backends).</summary>
    public static double TreeMilliseconds(int root)
    {
        long ticks = Ticks(root);
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
                && Stat(pid) is { } fields && int.Parse(fields[1], CultureInfo.InvariantCulture) == root)
                ticks += long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
        return ticks / TicksPerSecond * 1000;
    }

    /// <summary>CPU of every descendant of this process except <paramref name="server"/>: the browser's processes.</summary>
    public static double BrowserMilliseconds(int server)
    {
        var parents = new Dictionary<int, int>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
                && Stat(pid) is { } fields)
                parents[pid] = int.Parse(fields[1], CultureInfo.InvariantCulture);
        bool Below(int pid)
        {
            for (var p = pid; parents.TryGetValue(p, out var parent); p = parent)
            {
                if (p == server) return false;
                if (parent == Environment.ProcessId) return true;
            }
            return false;
        }
        return parents.Keys.Where(p => p != server && Below(p)).Sum(p => Ticks(p)) / TicksPerSecond * 1000;
    }

    static long Ticks(int pid) => Stat(pid) is { } fields
        ? long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture)
        : 0;

    /// <summary>The fields after the command name (which may hold spaces): state, ppid, ..., utime at [11], stime at [12].</summary>
    static string[]? Stat(int pid)
    {
        try
        {
            var text = File.ReadAllText($"/proc/{pid}/stat");
            return text[(text.LastIndexOf(')') + 2)..].Split(' ');
        }
        catch (IOException)
        {
            return null; // the process ended meanwhile
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }
}
