namespace IfiDashboard.Simulator.Scenarios;

/// <summary>A scenario file: defaults applied to every instance, and the instances.</summary>
public sealed class Scenario
{
    public List<ScenarioLogin> DefaultLogins { get; set; } = [];
    public List<ScenarioInstance> Instances { get; set; } = [];
}
