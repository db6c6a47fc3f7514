using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Hosting;

public sealed class FleetDisposalTests
{
    [Fact]
    public async Task Disposing_a_fleet_twice_is_harmless_and_its_ports_stop_answering()
    {
        var fleet = FleetSimulator.Start(new Scenario { Instances = [new ScenarioInstance { Name = "a", Profile = "2019" }] }, _ => { });
        var port = fleet["a"].Port;

        await fleet.DisposeAsync();
        await fleet.DisposeAsync();

        using var client = new System.Net.Sockets.TcpClient();
        await Assert.ThrowsAnyAsync<System.Net.Sockets.SocketException>(() => client.ConnectAsync("127.0.0.1", port));
    }
}
