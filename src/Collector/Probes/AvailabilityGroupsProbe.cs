using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// The instance's availability groups, its role in each and the other replicas, where SERVERPROPERTY('IsHadrEnabled')
/// is 1: one query per view (availability-groups.sql), joined here on group_id and replica_id.
/// </summary>
internal static class AvailabilityGroupsProbe
{
    public static async Task<IReadOnlyList<AvailabilityGroupInfo>?> RunAsync(ProbeContext context)
    {
        if (context.IsAzurePaas || context.Identity is null) return null;
        return await context.RunAsync<IReadOnlyList<AvailabilityGroupInfo>?>(ProbeNames.AvailabilityGroups, null, async () =>
        {
            var hadrEnabled = await context.Connection.ExecuteScalarAsync<int?>(context.Command(SqlScripts.HadrEnabled)) == 1;
            if (!hadrEnabled) return [];

            using var results = await context.Connection.QueryMultipleAsync(context.Command(SqlScripts.AvailabilityGroups));
            var groups = (await results.ReadAsync<GroupRow>()).AsList();
            var replicas = (await results.ReadAsync<ReplicaRow>()).AsList();
            var listeners = (await results.ReadAsync<ListenerRow>()).AsList();
            var groupStates = (await results.ReadAsync<GroupStateRow>()).AsList();
            var replicaStates = (await results.ReadAsync<ReplicaStateRow>()).AsList();
            var contained = context.MajorVersion >= 16
                ? (await context.Connection.QueryAsync<ContainedRow>(context.Command(SqlScripts.AvailabilityGroupsContained)))
                    .Where(r => r.is_contained == true).Select(r => r.group_id).ToHashSet()
                : [];

            var localStates = replicaStates.Where(s => s.is_local == true).ToList();
            if (groups.Count == 0 && localStates.Count > 0)
            {
                // The DMV answered but the catalog view showed nothing: the login lacks VIEW ANY DEFINITION.
                context.Add(new ProbeOutcome(ProbeNames.AvailabilityGroups, OutcomeClass.PermissionMissing,
                    $"The instance hosts {localStates.Count} availability group replica(s), but sys.availability_groups shows " +
                    $"none to this login: grant {context.PermissionFor(ProbeNames.AvailabilityGroups)}."));
                return null;
            }

            var read = groups.Select(g => new AvailabilityGroupInfo
            {
                GroupId = g.group_id,
                Name = g.name,
                LocalRole = localStates.FirstOrDefault(s => s.group_id == g.group_id)?.role_desc ?? "RESOLVING",
                PrimaryReplica = groupStates.FirstOrDefault(s => s.group_id == g.group_id)?.primary_replica,
                IsContained = contained.Contains(g.group_id),
                Replicas = [.. replicas.Where(r => r.group_id == g.group_id && r.replica_server_name is not null).Select(r => r.replica_server_name!)],
                Listeners = [.. listeners.Where(l => l.group_id == g.group_id && l.dns_name is not null).Select(l => l.dns_name!)],
            }).OrderBy(g => g.Name, StringComparer.OrdinalIgnoreCase).ToList();
            context.Ok(ProbeNames.AvailabilityGroups, read.Count == 0
                ? "Always On is enabled; the instance hosts no availability group replica."
                : string.Join(" ", read.Select(g =>
                    $"Availability group {g.Name}: this replica is {g.LocalRole}; replicas {string.Join(", ", g.Replicas)}.")));
            return read;
        });
    }

    sealed class GroupRow
    {
        public Guid group_id { get; set; }
        public string name { get; set; } = "";
    }

    sealed class ReplicaRow
    {
        public Guid group_id { get; set; }
        public string? replica_server_name { get; set; }
    }

    sealed class ListenerRow
    {
        public Guid group_id { get; set; }
        public string? dns_name { get; set; }
    }

    sealed class GroupStateRow
    {
        public Guid group_id { get; set; }
        public string? primary_replica { get; set; }
    }

    sealed class ReplicaStateRow
    {
        public Guid group_id { get; set; }
        public bool? is_local { get; set; }
        public string? role_desc { get; set; }
    }

    sealed class ContainedRow
    {
        public Guid group_id { get; set; }
        public bool? is_contained { get; set; }
    }
}
