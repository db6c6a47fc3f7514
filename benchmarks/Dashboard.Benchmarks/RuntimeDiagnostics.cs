using System.Diagnostics;
using System.Globalization;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// What the server's runtime says about itself, read from outside with the .NET diagnostic tools over its diagnostic
/// port: the live managed heap after a full collection (<c>dotnet-gcdump</c> induces a blocking gen-2 GC before it walks
/// the heap), and Blazor's own circuit meter (<c>dotnet-counters</c>, <c>Microsoft.AspNetCore.Components.Server.Circuits</c>).
/// The tools are optional: without them the run says so and measures with /proc and the tabs alone.
/// </summary>
internal sealed class RuntimeDiagnostics(string? gcdump, string? counters, string workDirectory)
{
    const string CircuitMeter = "Microsoft.AspNetCore.Components.Server.Circuits";

    public static RuntimeDiagnostics Find(string? toolDirectory, string workDirectory) =>
        new(Tool("dotnet-gcdump", toolDirectory), Tool("dotnet-counters", toolDirectory), workDirectory);

    public string Missing => string.Join(", ", new[] { ("dotnet-gcdump", gcdump), ("dotnet-counters", counters) }
        .Where(t => t.Item2 is null).Select(t => t.Item1));

    /// <summary>Live managed objects after the full GC the dump induces, in all and by type; null without dotnet-gcdump.</summary>
    public async Task<HeapDump?> LiveHeapAsync(int pid)
    {
        if (gcdump is null) return null;
        var file = Path.Combine(workDirectory, $"server-{DateTime.UtcNow:HHmmssfff}.gcdump");
        await RunAsync(gcdump, ["collect", "-p", pid.ToString(CultureInfo.InvariantCulture), "-o", file]);
        var report = await RunAsync(gcdump, ["report", file]);
        File.Delete(file);
        return HeapDump.Parse(report);
    }

    /// <summary>
    /// Starts listening to the circuit meter. Its counters are up-down counters, which the runtime publishes as the sum
    /// of the changes a listener saw: so the listener runs from before the first session opens to after the last, and
    /// its sums are the circuits opened and not closed meanwhile. Null without dotnet-counters.
    /// </summary>
    public CircuitCount? StartCountingCircuits(int pid)
    {
        if (counters is null) return null;
        var file = Path.Combine(workDirectory, $"circuits-{DateTime.UtcNow:HHmmssfff}.csv");
        var info = new ProcessStartInfo(counters) { RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true, UseShellExecute = false };
        foreach (var argument in new[] { "collect", "-p", pid.ToString(CultureInfo.InvariantCulture), "--counters", CircuitMeter,
                     "--refresh-interval", "1", "--format", "csv", "-o", file })
            info.ArgumentList.Add(argument);
        var process = Process.Start(info) ?? throw new InvalidOperationException("dotnet-counters did not start.");
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return new CircuitCount(process, file);
    }

    static string? Tool(string name, string? toolDirectory)
    {
        var places = new List<string>();
        if (toolDirectory is not null) places.Add(toolDirectory);
        places.AddRange((Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries));
        places.Add(Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".dotnet", "tools"));
        return places.Select(p => Path.Combine(p, name)).FirstOrDefault(File.Exists);
    }

    static async Task<string> RunAsync(string tool, IReadOnlyList<string> arguments)
    {
        var info = new ProcessStartInfo(tool) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments) info.ArgumentList.Add(argument);
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"{tool} did not start.");
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        await process.WaitForExitAsync(timeout.Token);
        if (process.ExitCode != 0)
            throw new InvalidOperationException($"{Path.GetFileName(tool)} {string.Join(' ', arguments)} exited {process.ExitCode}: {await error}");
        return await output;
    }
}

/// <summary>A running <c>dotnet-counters collect</c> on the circuit meter.</summary>
internal sealed class CircuitCount(Process process, string file)
{
    /// <summary>Circuits opened and not closed since the listener started (active: in memory; connected: to a browser).</summary>
    public async Task<(long Active, long Connected)> StopAsync()
    {
        // Ctrl+C, as at a console: the tool finishes its file and exits.
        using (var interrupt = Process.Start("kill", ["-INT", process.Id.ToString(CultureInfo.InvariantCulture)]))
            await interrupt.WaitForExitAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await process.WaitForExitAsync(timeout.Token);
        process.Dispose();
        // Timestamp,Provider,Counter Name,Counter Type,Mean/Increment: the last value of each counter counts.
        long active = 0, connected = 0;
        foreach (var line in File.ReadLines(file).Skip(1))
        {
            var fields = line.Split(',');
            if (fields.Length < 5 || !double.TryParse(fields[^1], NumberStyles.Float, CultureInfo.InvariantCulture, out var value)) continue;
            if (fields[2].Contains("circuit.active", StringComparison.Ordinal)) active = (long)value;
            else if (fields[2].Contains("circuit.connected", StringComparison.Ordinal)) connected = (long)value;
        }
        File.Delete(file);
        return (active, connected);
    }
}

/// <summary>What <c>dotnet-gcdump report</c> prints: the live heap's bytes, and its bytes by type.</summary>
internal sealed record HeapDump(long Bytes, IReadOnlyDictionary<string, long> BytesByType)
{
    public double Mb => Bytes / 1048576.0;

    // "     24,569,310  GC Heap bytes", then rows "  2,894  25  System.String (Bytes > 1K)  [System.Private.CoreLib.dll]" whose first
    // column is an object's size, so a type's bytes are size × count: an estimate (the rows add up to less than the total).
    public static HeapDump Parse(string report)
    {
        long total = 0;
        var byType = new Dictionary<string, long>();
        foreach (var line in report.Split('\n'))
        {
            var fields = line.Trim().Split(' ', 3, StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length < 2 || !long.TryParse(fields[0], NumberStyles.AllowThousands, CultureInfo.InvariantCulture, out var bytes)) continue;
            if (line.Contains("GC Heap bytes", StringComparison.Ordinal)) { total = bytes; continue; }
            if (fields.Length < 3 || !long.TryParse(fields[1], NumberStyles.AllowThousands, CultureInfo.InvariantCulture, out var count)) continue;
            var type = fields[2];
            foreach (var cut in new[] { "  [", " (Bytes >" })
                if (type.IndexOf(cut, StringComparison.Ordinal) is var at and >= 0) type = type[..at];
            byType[type] = byType.GetValueOrDefault(type) + bytes * count;
        }
        return total > 0 ? new HeapDump(total, byType) : throw new InvalidOperationException($"dotnet-gcdump report gave no heap size:\n{report}");
    }

    /// <summary>The types that grew most from <paramref name="before"/> to this dump, with their growth in bytes.</summary>
    public IEnumerable<(string Type, long Bytes)> GrowthSince(HeapDump before, int top) => BytesByType
        .Select(t => (t.Key, t.Value - before.BytesByType.GetValueOrDefault(t.Key)))
        .OrderByDescending(t => t.Item2).Take(top);
}
