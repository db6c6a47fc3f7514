namespace IfiDashboard.Collector.Benchmarks;

/// <summary>What the numbers depend on: cores, memory, and how busy the machine already was.</summary>
internal static class Machine
{
    /// <summary>The 1, 5 and 15 minute load averages (Linux); other engineers' builds show up here.</summary>
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
        var memory = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / 1024.0 / 1024 / 1024;
        return $"{Environment.ProcessorCount} cores, {memory:F0} GB, {System.Runtime.InteropServices.RuntimeInformation.OSDescription}, " +
               $".NET {Environment.Version}";
    }
}
