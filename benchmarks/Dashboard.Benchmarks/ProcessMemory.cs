using System.Globalization;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>Resident memory of a process as the kernel counts it: what an operator's monitoring would see.</summary>
internal readonly record struct ProcessMemory(long RssBytes, long PeakRssBytes)
{
    public double RssMb => RssBytes / (1024.0 * 1024);
    public double PeakRssMb => PeakRssBytes / (1024.0 * 1024);

    /// <summary>VmRSS (now) and VmHWM (the high-water mark since start) from /proc/PID/status.</summary>
    public static ProcessMemory Read(int pid)
    {
        long rss = 0, peak = 0;
        foreach (var line in File.ReadLines($"/proc/{pid}/status"))
        {
            if (line.StartsWith("VmRSS:", StringComparison.Ordinal)) rss = Kilobytes(line);
            else if (line.StartsWith("VmHWM:", StringComparison.Ordinal)) peak = Kilobytes(line);
        }
        return new ProcessMemory(rss, peak);
    }

    static long Kilobytes(string line) =>
        long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) * 1024;
}
