using System.Runtime.InteropServices;

namespace IfiDashboard.Benchmarks;

/// <summary>What the numbers depend on: the machine, and how busy other work kept it while we measured.</summary>
internal static class Machine
{
    /// <summary>The 1, 5 and 15 minute load averages (Linux); on a shared 2-core box other builds show up here.</summary>
    public static string LoadAverage()
    {
        try
        {
            return string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3));
        }
        catch (IOException)
        {
            return "unknown";
        }
    }

    public static string Describe()
    {
        var gigabytes = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024);
        return $"{Environment.ProcessorCount} cores, {gigabytes:F0} GB RAM, {Cpu()}, {RuntimeInformation.OSDescription}, .NET {Environment.Version}";
    }

    static string Cpu()
    {
        try
        {
            var line = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
            return line is null ? "unknown CPU" : line[(line.IndexOf(':') + 1)..].Trim();
        }
        catch (IOException)
        {
            return "unknown CPU";
        }
    }
}
