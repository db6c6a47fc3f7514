using System.Globalization;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// CPU time the whole machine spent busy, from /proc/stat. Minus our own (and the simulator's) it is what other
/// work on the machine took during a phase: the load average cannot say, because it counts our own runnable threads.
/// </summary>
internal static class MachineCpu
{
    /// <summary>Busy time of all cores together, or null where /proc/stat is missing.</summary>
    public static TimeSpan? Busy()
    {
        try
        {
            var fields = File.ReadLines("/proc/stat").First().Split(' ', StringSplitOptions.RemoveEmptyEntries);
            // cpu user nice system idle iowait irq softirq steal ...: everything but idle and iowait is busy.
            long Field(int i) => i < fields.Length ? long.Parse(fields[i], CultureInfo.InvariantCulture) : 0;
            var ticks = Field(1) + Field(2) + Field(3) + Field(6) + Field(7) + Field(8);
            return TimeSpan.FromSeconds(ticks / 100.0); // USER_HZ is 100 on Linux
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }
}
