namespace IfiDashboard.Store.Inventory;

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
    public List<(int Index, InventoryRefusal Refusal)> Refusals { get; } = [];

    /// <param name="active">Every active instance, CMDB-registered or not, with the server's name for itself once polled.</param>
    /// <param name="desired">Distinct keys and names (the API validates that before).</param>
    /// <param name="untouched">
    /// External keys whose instances stay as they are, neither changed nor retired (a partial sync's rejected items).
    /// </param>
    public static SyncPlan Compute(IReadOnlyList<InventoryRecord> active, IReadOnlyList<DesiredInstance> desired, bool retireMissing,
        IReadOnlySet<string>? untouched = null)
    {
        untouched ??= new HashSet<string>();
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
            plan.Retires.AddRange(byKey.Values.Where(r => !desiredKeys.Contains(r.ExternalKey!) && !untouched.Contains(r.ExternalKey!))
                .OrderBy(r => r.Registration.Id));

        // Once the sync is applied, the instances outside it that stay (registered another way, or CMDB instances the
        // payload leaves out and does not retire) keep their names and servers; desired instances claim theirs in order.
        var kept = active.Where(r => r.ExternalKey is null || untouched.Contains(r.ExternalKey)
                                     || (!desiredKeys.Contains(r.ExternalKey) && !retireMissing)).ToList();
        var keptNames = new Dictionary<string, InventoryRecord>(StringComparer.OrdinalIgnoreCase);
        foreach (var record in kept) keptNames.TryAdd(record.Registration.Name, record);
        var claimed = new InventoryFields.ServerIndex<InventoryRecord>(r => r.Registration);
        foreach (var record in kept) claimed.Add(record, record.PolledServerName);
        for (var i = 0; i < desired.Count; i++)
        {
            var registration = desired[i].Registration;
            if (keptNames.GetValueOrDefault(registration.Name) is { } named)
            {
                plan.Refusals.Add((i, InventoryRefusal.NameTaken(registration.Name, named.Registration)));
                continue;
            }
            if (claimed.Find(registration, null) is { } same)
            {
                plan.Refusals.Add((i, InventoryRefusal.ServerTaken(registration, same.Registration)));
                continue;
            }
            // An instance that stays where it was keeps what its polls learned of the server; a new one knows only its address.
            var current = byKey.GetValueOrDefault(desired[i].ExternalKey);
            var polled = current is not null && InventoryFields.ServerKey(current.Registration) == InventoryFields.ServerKey(registration)
                ? current.PolledServerName
                : null;
            claimed.Add(new InventoryRecord(registration with { Id = current?.Registration.Id ?? 0 }, desired[i].ExternalKey,
                default, default, 0, polled), polled);
        }
        return plan;
    }

    public SyncOutcome ToOutcome() => new(
        Creates.Select(d => d.ExternalKey).ToList(),
        Updates.Select(u => u.Desired.ExternalKey).ToList(),
        Retires.Select(r => r.ExternalKey!).ToList(),
        Unchanged.Select(d => d.ExternalKey).ToList(),
        Refusals);
}
