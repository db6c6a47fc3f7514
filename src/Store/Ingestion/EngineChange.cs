namespace IfiDashboard.Store.Ingestion;

/// <summary>
/// One entry of the IFI timeline: an engine-service fact that differs from the previous good poll. <see cref="Doubt"/>
/// says why the poll that saw it disagrees with the instance's recent history, so that a forged or mistaken snapshot
/// stands out in the timeline and the changes feed (docs/security.md, "What one stolen collector key can and cannot do").
/// </summary>
internal sealed record EngineChange(string Field, string? OldValue, string? NewValue, string? Doubt = null)
{
    public const string IfiEnabled = "ifi_enabled";
    public const string ServiceAccount = "service_account";
    public const string LastStartupTime = "last_startup_time";
    /// <summary>A failover: the instance's role in an availability group, as "group=ROLE" (AvailabilityGroupStore).</summary>
    public const string AvailabilityRole = "availability_role";
    /// <summary>A failover cluster instance moved to another node: the owner node's name.</summary>
    public const string ClusterOwner = "cluster_owner";

    /// <summary>
    /// Compares the engine facts of two states. Nothing is reported until an engine service has been seen once: the
    /// first observation is a baseline, not a change.
    /// </summary>
    public static IReadOnlyList<EngineChange> Between(InstanceStateRow? previous, InstanceStateRow next)
    {
        if (previous?.EngineServiceAccount is null)
            return [];

        var candidates = new[]
        {
            new EngineChange(IfiEnabled, previous.EngineIfiEnabled, next.EngineIfiEnabled),
            new EngineChange(ServiceAccount, previous.EngineServiceAccount, next.EngineServiceAccount),
            // The timeline's old and new values are text whatever the field: a time in the store's text form.
            new EngineChange(LastStartupTime, StoreTime.ToText(previous.EngineLastStartupTime), StoreTime.ToText(next.EngineLastStartupTime)),
        };
        // Ignoring case: Windows account names are case-insensitive, and the other fields are Y/N and fixed-format times.
        return candidates.Where(c => !string.Equals(c.OldValue, c.NewValue, StringComparison.OrdinalIgnoreCase)).ToList();
    }

    /// <summary>The changes of one poll, each with why it disagrees with what came before, if it does.</summary>
    /// <param name="previousCollector">The collector of the previous good poll; <paramref name="collector"/> this poll's.</param>
    public static IReadOnlyList<EngineChange> Doubted(IReadOnlyList<EngineChange> changes, string? previousCollector, string collector)
    {
        var restarted = changes.Any(c => c.Field == LastStartupTime);
        var otherCollector = previousCollector is not null && !string.Equals(previousCollector, collector, StringComparison.Ordinal)
            ? $"polled by the collector {collector}, the poll before by {previousCollector}"
            : null;
        return [.. changes.Select(c => c with { Doubt = Join(restarted ? null : NoRestart(c.Field), otherCollector) })];
    }

    /// <summary>The engine reads the privilege and its account only when the service starts.</summary>
    static string? NoRestart(string field) => field switch
    {
        IfiEnabled => "IFI changed with no restart of the engine service since the poll before",
        ServiceAccount => "the service account changed with no restart of the engine service since the poll before",
        _ => null,
    };

    static string? Join(string? first, string? second) =>
        first is null ? second : second is null ? first : $"{first}; {second}";
}
