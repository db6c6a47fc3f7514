using System.Diagnostics;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// The fleet simulator in its own process (its CLI, as docs/simulator.md describes it), so neither its memory nor its
/// CPU is counted as the server's.
/// </summary>
internal sealed partial class SimulatorProcess : IAsyncDisposable
{
    public const string Login = "ifi_collector";
    public const string Password = "Bench-Collector-Pw1";

    readonly Process _process;

    SimulatorProcess(Process process, IReadOnlyList<int> ports)
    {
        _process = process;
        Ports = ports;
    }

    public IReadOnlyList<int> Ports { get; }
    public int Pid => _process.Id;

    public static async Task<SimulatorProcess> StartAsync(string simulatorDll, string directory, int instances)
    {
        var scenario = Path.Combine(directory, "collector-fleet.json");
        await File.WriteAllTextAsync(scenario, JsonSerializer.Serialize(new
        {
            defaultLogins = new[] { new { name = Login, password = Password, permissions = new[] { "sysadmin" } } },
            instances = Enumerable.Range(0, instances).Select(i => new
            {
                name = $"sim-{i:D4}",
                profile = new[] { "2016-SP1", "2017", "2019", "2022" }[i % 4],
                ifiEnabled = i % 3 != 0,
            }),
        }));
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(simulatorDll);
        info.ArgumentList.Add("--scenario");
        info.ArgumentList.Add(scenario);
        var process = Process.Start(info) ?? throw new InvalidOperationException("The simulator did not start.");
        var errors = new System.Text.StringBuilder();
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) lock (errors) errors.AppendLine(e.Data); };
        process.BeginErrorReadLine();
        var ports = new List<int>();
        while (ports.Count < instances && await process.StandardOutput.ReadLineAsync() is { } line)
            if (PortPattern().Match(line) is { Success: true } match)
                ports.Add(int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
        if (ports.Count < instances)
        {
            await process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(5));
            lock (errors)
                throw new InvalidOperationException($"The simulator listed {ports.Count} of {instances} instances: {errors}");
        }
        return new SimulatorProcess(process, ports);
    }

    [GeneratedRegex(@"Server=127\.0\.0\.1,(\d+);")]
    private static partial Regex PortPattern();

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }
        _process.Dispose();
    }
}
