using System.Diagnostics;
using System.Text.Json;
using System.Text.Json.Serialization;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>The simulated fleet, served in this process or by the simulator CLI in a child process.</summary>
internal sealed class FleetHost : IAsyncDisposable
{
    readonly FleetSimulator? _inProcess;
    readonly Process? _child;
    readonly string? _scenarioFile;
    int _simulatorComplaints;

    FleetHost(FleetSimulator? inProcess, Process? child, string? scenarioFile, IReadOnlyDictionary<string, int> ports)
    {
        _inProcess = inProcess;
        _child = child;
        _scenarioFile = scenarioFile;
        Ports = ports;
    }

    /// <summary>Instance name to loopback port.</summary>
    public IReadOnlyDictionary<string, int> Ports { get; }

    /// <summary>The simulator's own CPU time when it runs apart; null in-process (it is inside our own figure).</summary>
    public TimeSpan? ChildCpu
    {
        get
        {
            if (_child is null) return null;
            _child.Refresh();
            return _child.TotalProcessorTime;
        }
    }

    /// <summary>Lines the in-process simulator logged: an unknown statement would make the comparison meaningless.</summary>
    public int SimulatorComplaints => Volatile.Read(ref _simulatorComplaints);

    public static async Task<FleetHost> StartAsync(Scenario scenario, SimulatorMode mode)
    {
        if (mode == SimulatorMode.InProcess)
        {
            FleetHost? host = null;
            var fleet = FleetSimulator.Start(scenario, line =>
            {
                if (host is not null) Interlocked.Increment(ref host._simulatorComplaints);
                Console.Error.WriteLine("simulator: " + line);
            });
            host = new FleetHost(fleet, null, null, fleet.Instances.ToDictionary(i => i.Name, i => i.Port));
            return host;
        }
        return await StartChildAsync(scenario);
    }

    /// <summary>Runs the simulator CLI on a scenario file and reads its NAME&lt;TAB&gt;connection string lines.</summary>
    static async Task<FleetHost> StartChildAsync(Scenario scenario)
    {
        var file = Path.Combine(Path.GetTempPath(), $"ifi-bench-{Environment.ProcessId}.json");
        await File.WriteAllTextAsync(file, JsonSerializer.Serialize(scenario, WriteOptions));
        var simulatorDll = Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Simulator.dll");
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var arg in new[] { simulatorDll, "--scenario", file }) start.ArgumentList.Add(arg);
        var child = Process.Start(start) ?? throw new InvalidOperationException("Could not start the simulator CLI.");

        var ports = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        while (ports.Count < scenario.Instances.Count && await child.StandardOutput.ReadLineAsync() is { } line)
        {
            var parts = line.Split('\t', 2);
            var server = parts[1].Split(';')[0]; // Server=127.0.0.1,PORT
            ports[parts[0]] = int.Parse(server[(server.LastIndexOf(',') + 1)..], System.Globalization.CultureInfo.InvariantCulture);
        }
        if (ports.Count < scenario.Instances.Count)
            throw new InvalidOperationException($"The simulator CLI announced {ports.Count} of {scenario.Instances.Count} instances.");
        return new FleetHost(null, child, file, ports);
    }

    // The CLI reads what ScenarioFile reads; computed properties (IsEncrypted) must not be written back, because the
    // reader rejects properties it cannot set.
    static readonly JsonSerializerOptions WriteOptions = new(ScenarioFile.Options)
    {
        IgnoreReadOnlyProperties = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    public async ValueTask DisposeAsync()
    {
        if (_inProcess is not null) await _inProcess.DisposeAsync();
        if (_child is not null)
        {
            if (!_child.HasExited) _child.Kill();
            await _child.WaitForExitAsync();
            _child.Dispose();
        }
        if (_scenarioFile is not null) File.Delete(_scenarioFile);
    }
}
