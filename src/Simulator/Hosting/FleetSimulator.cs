using System.Net.Sockets;
using IfiDashboard.Simulator.Engine;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Hosting;

/// <summary>Serves every instance of a scenario on loopback. Used by the CLI, the demo, tests and benchmarks.</summary>
public sealed class FleetSimulator : IAsyncDisposable
{
    readonly Dictionary<string, SimulatedInstance> _instances;

    FleetSimulator(Scenario scenario, Dictionary<string, SimulatedInstance> instances)
    {
        Scenario = scenario;
        _instances = instances;
    }

    public Scenario Scenario { get; }
    public IReadOnlyCollection<SimulatedInstance> Instances => _instances.Values;
    public SimulatedInstance this[string name] => _instances[name];

    /// <param name="log">Where loud simulator messages go (unknown statements); standard error by default.</param>
    /// <param name="clock">What the servers' clocks read (SYSDATETIMEOFFSET and friends); the system clock by default.</param>
    public static FleetSimulator Start(Scenario scenario, Action<string>? log = null, TimeProvider? clock = null)
    {
        scenario.LinkAvailabilityGroups();
        var engine = new QueryEngine(log ?? Console.Error.WriteLine, clock);
        var instances = new Dictionary<string, SimulatedInstance>(StringComparer.OrdinalIgnoreCase);
        try
        {
            foreach (var definition in scenario.Instances)
            {
                var instance = new SimulatedInstance(definition, scenario.DefaultLogins, engine);
                if (!instances.TryAdd(definition.Name, instance))
                    throw new ArgumentException($"Scenario names instance '{definition.Name}' twice.");
                try
                {
                    instance.Start();
                }
                catch (SocketException e) when (e.SocketErrorCode == SocketError.TooManyOpenSockets)
                {
                    // .NET already lifts the soft descriptor limit to the hard one at start-up; past that only the
                    // operator can help, so say how instead of failing with a bare EMFILE.
                    throw new InvalidOperationException(
                        $"Out of file descriptors after {instances.Count - 1} instances: each instance needs one listening " +
                        "socket and two per open connection. Raise the hard limit (ulimit -Hn, or LimitNOFILE= for a service).", e);
                }
            }
        }
        catch
        {
            foreach (var started in instances.Values) started.DisposeAsync().AsTask().GetAwaiter().GetResult();
            throw;
        }
        return new FleetSimulator(scenario, instances);
    }

    /// <summary>Changes an instance while it runs (IFI taken away, a fault switched on) and applies what needs it.</summary>
    public void Update(string name, Action<ScenarioInstance> change)
    {
        var instance = _instances[name];
        change(instance.Scenario);
        instance.ApplyConnectivity();
    }

    /// <summary>
    /// A planned failover of <paramref name="group"/> to the replica on <paramref name="newPrimary"/>: every replica
    /// answers the HADR views with the new roles from its next query on.
    /// </summary>
    public void Failover(string group, string newPrimary)
    {
        var ag = Scenario.AvailabilityGroups.Single(g => string.Equals(g.Name, group, StringComparison.OrdinalIgnoreCase));
        ag.Primary = ag.Replicas.Single(r => string.Equals(r, newPrimary, StringComparison.OrdinalIgnoreCase));
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var instance in _instances.Values) await instance.DisposeAsync();
    }
}
