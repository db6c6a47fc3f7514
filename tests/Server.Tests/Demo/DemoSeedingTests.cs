using IfiDashboard.Server.Demo;
using IfiDashboard.Server.Tests.Store;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Tests.Demo;

/// <summary>
/// A restarted demo listens on new ports; one instance's new port can be another's old one, which the inventory refuses
/// as a second registration of one address until that other instance has moved.
/// </summary>
public sealed class DemoSeedingTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static InstanceRegistration OnLoopback(string name, int port) => TestData.Registration(name) with { Host = "127.0.0.1", Port = port };

    [Theory, StoreProviders]
    public async Task A_restarted_demo_whose_new_port_is_another_instances_old_one_starts_with_every_instance_on_its_new_port(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var first = await DemoFleetHost.SeedAsync(store.Instances,
            [OnLoopback("DEMO-A", 41001), OnLoopback("DEMO-B", 41002)], None);

        // DEMO-A is seeded first and takes the port DEMO-B still holds.
        var again = await DemoFleetHost.SeedAsync(store.Instances,
            [OnLoopback("DEMO-A", 41002), OnLoopback("DEMO-B", 41003)], None);

        var ports = (await store.Instances.ListActiveAsync(None)).ToDictionary(r => r.Name, r => r.Port);
        Assert.Equal(first, again);
        Assert.Equal(new Dictionary<string, int?> { ["DEMO-A"] = 41002, ["DEMO-B"] = 41003 }, ports);
    }

    [Theory, StoreProviders]
    public async Task A_restarted_demo_whose_instances_swapped_ports_starts_with_every_instance_on_its_new_port(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var first = await DemoFleetHost.SeedAsync(store.Instances,
            [OnLoopback("DEMO-A", 41001), OnLoopback("DEMO-B", 41002), OnLoopback("DEMO-C", 41003)], None);

        // Each new port is another's old one, in a cycle: no instance can move first.
        var again = await DemoFleetHost.SeedAsync(store.Instances,
            [OnLoopback("DEMO-A", 41002), OnLoopback("DEMO-B", 41003), OnLoopback("DEMO-C", 41001)], None);

        var active = (await store.Instances.ListActiveAsync(None)).ToDictionary(r => r.Name, r => (r.Host, r.Port));
        Assert.Equal(first, again);
        Assert.Equal(new Dictionary<string, (string, int?)>
        {
            ["DEMO-A"] = ("127.0.0.1", 41002), ["DEMO-B"] = ("127.0.0.1", 41003), ["DEMO-C"] = ("127.0.0.1", 41001),
        }, active);
    }

    [Theory, StoreProviders]
    public async Task A_demo_instance_on_an_address_registered_outside_the_demo_stops_the_start_naming_it(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await store.Instances.AddAsync(OnLoopback("USERS-OWN", 41002), None);

        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => DemoFleetHost.SeedAsync(store.Instances,
            [OnLoopback("DEMO-A", 41001), OnLoopback("DEMO-B", 41002)], None));

        Assert.StartsWith("The demo instance DEMO-B was refused:", refused.Message);
        Assert.Contains("USERS-OWN", refused.Message);
    }
}
