using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Support;

/// <summary>A simulated fleet on loopback for one test class; each test starts from the scenario it builds.</summary>
internal static class Fleets
{
    public static FleetSimulator Start(params ScenarioInstance[] instances) => FleetSimulator.Start(new Scenario
    {
        DefaultLogins = [new ScenarioLogin { Name = ProberFactory.Login, Password = ProberFactory.Password }],
        Instances = [.. instances],
    }, _ => { });

    public static ScenarioLogin LoginWith(params string[] permissions) =>
        new() { Name = ProberFactory.Login, Password = ProberFactory.Password, Permissions = [.. permissions] };
}
