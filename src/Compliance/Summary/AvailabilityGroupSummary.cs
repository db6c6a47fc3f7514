using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Summary;

/// <summary>
/// One availability group across the fleet: its replicas, each with the registered instance that is it (if any) and
/// that instance's IFI state. IFI is a property of each replica's host, read at its service start, and every replica
/// that may become primary zero-fills its growths and restores without it, while a secondary redoes the primary's
/// growths and receives automatic seeding: a replica without IFI is a risk for the whole group (docs/compliance.md).
/// </summary>
public sealed record AvailabilityGroupSummary(
    Guid GroupId,
    string Name,
    IReadOnlyList<AvailabilityReplicaSummary> Replicas,
    IReadOnlyList<string> Listeners,
    bool IsContained)
{
    public int WithoutIfi => Replicas.Count(r => r.Ifi == IfiState.Disabled);
    public int WithIfi => Replicas.Count(r => r.Ifi == IfiState.Enabled);
    public int NotMonitored => Replicas.Count(r => r.Instance is null);
    public AvailabilityReplicaSummary? Primary => Replicas.FirstOrDefault(r => r.IsPrimary);

    /// <summary>The replicas disagree, or some cannot be told: after a failover the group behaves differently.</summary>
    public bool IsMixed => Replicas.Select(r => r.Ifi).Distinct().Count() > 1;

    /// <summary>"AG payments: 2 of 3 replicas without IFI; the primary has it."</summary>
    public string Sentence
    {
        get
        {
            var state = WithoutIfi == 0
                ? WithIfi == Replicas.Count ? "every replica has IFI" : $"{WithIfi} of {Replicas.Count} replicas with IFI"
                : WithIfi == 0 && WithoutIfi == Replicas.Count ? "no replica has IFI"
                : $"{WithoutIfi} of {Replicas.Count} replicas without IFI";
            var primary = Primary is not { } p || WithoutIfi == 0 || WithIfi == 0 ? ""
                : p.Ifi switch
                {
                    IfiState.Enabled => "; the primary has it",
                    IfiState.Disabled => "; the primary lacks it",
                    _ => "",
                };
            var unknown = Replicas.Count(r => r.Instance is not null && r.Ifi == IfiState.Unknown);
            var unseen = (NotMonitored > 0 ? $"; {NotMonitored} not monitored ({string.Join(", ", Replicas.Where(r => r.Instance is null).Select(r => r.ServerName))})" : "")
                         + (unknown > 0 ? $"; {unknown} unknown" : "");
            return $"AG {Name}: {state}{primary}{unseen}.";
        }
    }

    /// <summary>
    /// The fleet's availability groups, by group id (the same on every replica), named as the latest reading names
    /// them; replicas in the order the group lists them, each matched to the registered instance whose server name it is.
    /// </summary>
    public static IReadOnlyList<AvailabilityGroupSummary> Of(IEnumerable<InstanceAssessment> instances) =>
        Of(instances.Select(i => new AvailabilityReplicaInstance(i.Facts, i.Compliance.Status)));

    /// <inheritdoc cref="Of(IEnumerable{InstanceAssessment})"/>
    public static IReadOnlyList<AvailabilityGroupSummary> Of(IEnumerable<AvailabilityReplicaInstance> instances)
    {
        var members = instances
            .SelectMany(i => i.Facts.AvailabilityGroups.Select(g => (Instance: i, Group: g)))
            .GroupBy(m => m.Group.GroupId);
        return members.Select(Summarise)
            .OrderBy(g => g.Name, StringComparer.OrdinalIgnoreCase)
            .ToList();
    }

    static AvailabilityGroupSummary Summarise(IGrouping<Guid, (AvailabilityReplicaInstance Instance, AvailabilityGroupInfo Group)> members)
    {
        var latest = members.MaxBy(m => m.Instance.Facts.LastGoodPollAt ?? DateTimeOffset.MinValue).Group;
        var byServer = members
            .Where(m => ServerName(m.Instance.Facts) is not null)
            .GroupBy(m => ServerName(m.Instance.Facts)!, StringComparer.OrdinalIgnoreCase)
            .ToDictionary(g => g.Key, g => g.First(), StringComparer.OrdinalIgnoreCase);
        var names = members.SelectMany(m => m.Group.Replicas).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
        var primaryName = latest.PrimaryReplica;
        var replicas = names.Select(name =>
        {
            var found = byServer.TryGetValue(name, out var member);
            var role = found ? member.Group.LocalRole
                : string.Equals(name, primaryName, StringComparison.OrdinalIgnoreCase) ? AvailabilityRoles.Primary : AvailabilityRoles.Secondary;
            return new AvailabilityReplicaSummary(name, role, found ? member.Instance : null);
        }).ToList();
        return new AvailabilityGroupSummary(members.Key, latest.Name, replicas, latest.Listeners, latest.IsContained);
    }

    /// <summary>@@SERVERNAME as sys.availability_replicas names a replica: MACHINE or MACHINE\INSTANCE.</summary>
    public static string? ServerName(InstanceFacts facts) => facts.MachineName is not { Length: > 0 } machine ? null
        : facts.SqlInstanceName is { Length: > 0 } instance ? $@"{machine}\{instance}" : machine;

    /// <summary>
    /// The group whose listener the registration's host names: each poll then reaches whichever replica is primary,
    /// so what the registration shows follows failovers instead of one server. Null for a registration of a replica.
    /// </summary>
    public static AvailabilityGroupInfo? ReachedThroughListener(InstanceFacts facts)
    {
        var host = FirstLabel(facts.Registration.Host);
        return facts.AvailabilityGroups.FirstOrDefault(g =>
            g.Listeners.Any(l => string.Equals(FirstLabel(l), host, StringComparison.OrdinalIgnoreCase)));
    }

    static string FirstLabel(string name) => name.Split('.', 2)[0].Split(',', 2)[0];
}

/// <summary>A registered instance as a replica: its facts and its compliance status (the colour its IFI is shown in).</summary>
public sealed record AvailabilityReplicaInstance(InstanceFacts Facts, ComplianceStatus Status)
{
    public long Id => Facts.InstanceId;
}

/// <summary>One replica of a group: its server name, its role, and the registered instance that is it (null: not monitored).</summary>
public sealed record AvailabilityReplicaSummary(string ServerName, string Role, AvailabilityReplicaInstance? Instance)
{
    public IfiState Ifi => Instance?.Facts.Ifi.State ?? IfiState.Unknown;
    public bool IsPrimary => string.Equals(Role, AvailabilityRoles.Primary, StringComparison.OrdinalIgnoreCase);
}
