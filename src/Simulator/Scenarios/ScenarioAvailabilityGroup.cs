using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Serialization;

namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// An Always On availability group whose replicas are instances of the same scenario: each replica answers the HADR
/// views from these shared facts, so a failover (<see cref="Hosting.FleetSimulator.Failover"/>) changes every
/// replica's answer at once, as the cluster does.
/// </summary>
public sealed class ScenarioAvailabilityGroup
{
    public required string Name { get; set; }

    /// <summary>The instances (by scenario name) that host a replica, in the order sys.availability_replicas lists them.</summary>
    public required IReadOnlyList<string> Replicas { get; set; }

    /// <summary>The replica in the primary role; null is the first replica.</summary>
    public string? Primary { get; set; }

    /// <summary>The listener's DNS name, or null for a group without a listener.</summary>
    public string? Listener { get; set; }

    public int ListenerPort { get; set; } = 1433;

    /// <summary>A contained availability group (SQL Server 2022 and later: sys.availability_groups.is_contained).</summary>
    public bool Contained { get; set; }

    /// <summary>Stable per name, as a real group keeps its id for life.</summary>
    [JsonIgnore]
    public Guid GroupId => StableGuid("group:" + Name);

    [JsonIgnore]
    public string PrimaryReplica => Primary ?? Replicas[0];

    /// <summary>The replicas' instances, set when the fleet starts (<see cref="Scenario.LinkAvailabilityGroups"/>).</summary>
    [JsonIgnore]
    public IReadOnlyList<ScenarioInstance> ReplicaInstances { get; internal set; } = [];

    public Guid ReplicaId(string instanceName) => StableGuid($"replica:{Name}:{instanceName.ToUpperInvariant()}");

    private static Guid StableGuid(string text) => new(MD5.HashData(Encoding.UTF8.GetBytes(text)));
}
