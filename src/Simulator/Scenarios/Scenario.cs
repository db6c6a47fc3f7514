namespace IfiDashboard.Simulator.Scenarios;

/// <summary>A scenario file: defaults applied to every instance, and the instances.</summary>
public sealed class Scenario
{
    public List<ScenarioLogin> DefaultLogins { get; set; } = [];
    public List<ScenarioInstance> Instances { get; set; } = [];

    /// <summary>Availability groups whose replicas are instances of this scenario (see docs/simulator.md).</summary>
    public List<ScenarioAvailabilityGroup> AvailabilityGroups { get; set; } = [];

    /// <summary>
    /// Gives each replica instance its groups and each group its instances; an unknown or repeated replica fails
    /// here, naming the group.
    /// </summary>
    public void LinkAvailabilityGroups()
    {
        foreach (var instance in Instances) instance.AvailabilityGroups = [];
        foreach (var group in AvailabilityGroups)
        {
            var replicas = group.Replicas.Select(name => Instances.FirstOrDefault(i => Same(i.Name, name))
                ?? throw new InvalidDataException($"Availability group '{group.Name}' names unknown replica instance '{name}'.")).ToList();
            if (replicas.Count == 0 || replicas.Distinct().Count() != replicas.Count)
                throw new InvalidDataException($"Availability group '{group.Name}' needs distinct replica instances.");
            if (!group.Replicas.Any(r => Same(r, group.PrimaryReplica)))
                throw new InvalidDataException($"Availability group '{group.Name}': primary '{group.Primary}' is not one of its replicas.");
            group.ReplicaInstances = replicas;
            foreach (var replica in replicas) replica.AvailabilityGroups = [.. replica.AvailabilityGroups, group];
        }
    }

    private static bool Same(string a, string b) => string.Equals(a, b, StringComparison.OrdinalIgnoreCase);
}
