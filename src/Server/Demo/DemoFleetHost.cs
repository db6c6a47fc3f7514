using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Policy;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Server.Store;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Demo;

/// <summary>
/// Runs the demo fleet on loopback inside the server and registers every instance in the store, so the embedded
/// collector polls it like any other fleet. The collector is woken once the fleet is registered, so whichever of the
/// two starts first, the demo's first polls come at once.
/// </summary>
public sealed class DemoFleetHost(Scenario scenario, InstanceInventory instances, PolicyStore policies, FleetChanges changes,
    CollectorWakeUp collector, TimeProvider time, ILogger<DemoFleetHost> logger) : IHostedService, IAsyncDisposable
{
    FleetSimulator? _fleet;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        _fleet = FleetSimulator.Start(scenario, line => logger.LogWarning("{SimulatorMessage}", line));
        await RegisterAsync(_fleet, instances, policies, time.GetUtcNow(), cancellationToken);
        changes.Publish();
        collector.Recheck();
        logger.LogInformation("Demo fleet: {Count} simulated instances on 127.0.0.1", _fleet.Instances.Count);
    }

    /// <summary>
    /// Registers every instance of a running demo fleet and seeds the demo's policy: the demo's start-up, and the soak
    /// benchmark's, which runs the fleet in its own process so that it can switch faults while the server polls.
    /// </summary>
    public static async Task RegisterAsync(FleetSimulator fleet, InstanceInventory instances, PolicyStore policies,
        DateTimeOffset now, CancellationToken cancellationToken)
    {
        var ids = await SeedAsync(instances, fleet.Instances.Select(Registration).ToList(), cancellationToken);
        await DemoPolicy.SeedAsync(policies, ids, fleet.Scenario, now, cancellationToken);
    }

    /// <summary>
    /// Seeds the demo's registrations by name. A restarted demo listens on new ports, and one instance's new port can be
    /// another's old one, still registered until that one is seeded: the inventory refuses a second registration of
    /// one address, so a refused registration is tried again once the others have moved. When instances swapped ports
    /// among themselves, none can move first: one of them is parked on an address nobody can hold (the reserved
    /// <c>.invalid</c> name, RFC 6761), which frees its old port, and is seeded again with the rest. A refusal that
    /// parking does not clear (a registration of the user's own on that address) is a bug in the demo, not a user's
    /// mistake.
    /// </summary>
    internal static async Task<IReadOnlyDictionary<string, long>> SeedAsync(InstanceInventory instances,
        IReadOnlyList<InstanceRegistration> registrations, CancellationToken cancellationToken)
    {
        var ids = new Dictionary<string, long>(StringComparer.OrdinalIgnoreCase);
        var parked = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var pending = registrations;
        while (pending.Count > 0)
        {
            var refused = new List<(InstanceRegistration Registration, InventoryWrite Write)>();
            foreach (var registration in pending)
            {
                var seeded = await instances.SeedAsync(registration, cancellationToken);
                if (seeded.Refusal is not null) refused.Add((registration, seeded));
                else ids[registration.Name] = seeded.Record!.Registration.Id;
            }
            if (refused.Count == pending.Count && refused is [var (stuck, write), ..])
            {
                if (refused.FirstOrDefault(r => !parked.Contains(r.Registration.Name)).Registration is not { } toPark
                    || (await instances.SeedAsync(toPark with { Host = ParkingHost }, cancellationToken)).Refusal is not null)
                {
                    var first = write.Refusal!.Errors[0];
                    throw new InvalidOperationException($"The demo instance {stuck.Name} was refused: {first.Path}: {first.Message}");
                }
                parked.Add(toPark.Name);
            }
            pending = refused.Select(r => r.Registration).ToList();
        }
        return ids;
    }

    /// <summary>A host name that resolves nowhere (RFC 6761): a demo registration waits there for its port to free.</summary>
    const string ParkingHost = "demo-reseeding.invalid";

    static InstanceRegistration Registration(SimulatedInstance instance)
    {
        var inventory = instance.Scenario.Inventory ?? new ScenarioInventory();
        return new InstanceRegistration
        {
            Name = instance.Name,
            Host = "127.0.0.1",
            Port = instance.Port,
            Environment = inventory.Environment,
            Owner = inventory.Owner,
            Tags = inventory.Tags,
            Encrypt = Enum.Parse<EncryptMode>(inventory.Encrypt, ignoreCase: true),
            // The simulator's certificate is self-signed, like a SQL Server's own.
            TrustServerCertificate = true,
            CredentialName = DemoMode.CredentialName,
            PollIntervalSeconds = 60,
        };
    }

    public async Task StopAsync(CancellationToken cancellationToken) => await DisposeAsync();

    public async ValueTask DisposeAsync()
    {
        // StopAsync and the container's disposal both end here: only the first one stops the fleet.
        if (Interlocked.Exchange(ref _fleet, null) is { } fleet) await fleet.DisposeAsync();
    }
}
