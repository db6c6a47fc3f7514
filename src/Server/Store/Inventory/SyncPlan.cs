namespace IfiDashboard.Server.Store.Inventory;

/// <summary>
/// What bringing the active inventory to the CMDB's desired state takes. Pure: computed from what is active now,
/// so a dry run and a real run agree. Only instances carrying an external key are ever retired by it.
/// </summary>
public sealed class SyncPlan
{
    public List<DesiredInstance> Creates { get; } = [];
    public List<(InventoryRecord Current, DesiredInstance Desired)> Updates { get; } = [];
    public List<InventoryRecord> Retires { get; } = [];
    public List<DesiredInstance> Unchanged { get; } = [];
    public List<int> NameConflicts { get; } = [];
    public List<(int Index, string RegisteredAs)> ServerConflicts { get; } = [];

    /// <param name="active">Every active instance, CMDB-registered or not.</param>
    /// <param name="desired">Distinct keys and names (the API validates that before).</param>
    public static SyncPlan Compute(IReadOnlyList<InventoryRecord> active, IReadOnlyList<DesiredInstance> desired, bool retireMissing)
    {
        var plan = new SyncPlan();
        var byKey = active.Where(r => r.ExternalKey is not null).ToDictionary(r => r.ExternalKey!, StringComparer.Ordinal);
        var desiredKeys = desired.Select(d => d.ExternalKey).ToHashSet(StringComparer.Ordinal);

        foreach (var item in desired)
        {
            if (!byKey.TryGetValue(item.ExternalKey, out var current))
                plan.Creates.Add(item);
            else if (InventoryFields.Same(current.Registration, item.Registration))
                plan.Unchanged.Add(item);
            else
                plan.Updates.Add((current, item));
        }
        if (retireMissing)
            plan.Retires.AddRange(byKey.Values.Where(r => !desiredKeys.Contains(r.ExternalKey!)).OrderBy(r => r.Registration.Id));

        // Names an instance outside this sync keeps once it is applied: registered another way, or a CMDB instance
        // the payload leaves out and does not retire.
        var keptNames = active
            .Where(r => r.ExternalKey is null || (!desiredKeys.Contains(r.ExternalKey) && !retireMissing))
            .Select(r => r.Registration.Name)
            .ToHashSet(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < desired.Count; i++)
        {
            if (keptNames.Contains(desired[i].Registration.Name))
                plan.NameConflicts.Add(i);
        }

        // One server, one registration, once the sync is applied: among the desired instances and those it keeps.
        var servers = active
            .Where(r => r.ExternalKey is null || (!desiredKeys.Contains(r.ExternalKey) && !retireMissing))
            .GroupBy(r => InventoryFields.ServerKey(r.Registration))
            .ToDictionary(g => g.Key, g => g.First().Registration.Name);
        for (var i = 0; i < desired.Count; i++)
        {
            if (!servers.TryAdd(InventoryFields.ServerKey(desired[i].Registration), desired[i].Registration.Name))
                plan.ServerConflicts.Add((i, servers[InventoryFields.ServerKey(desired[i].Registration)]));
        }
        return plan;
    }

    public SyncOutcome ToOutcome() => new(
        Creates.Select(d => d.ExternalKey).ToList(),
        Updates.Select(u => u.Desired.ExternalKey).ToList(),
        Retires.Select(r => r.ExternalKey!).ToList(),
        Unchanged.Select(d => d.ExternalKey).ToList(),
        NameConflicts,
        ServerConflicts);
}
