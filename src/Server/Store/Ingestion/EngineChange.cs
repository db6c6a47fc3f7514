namespace IfiDashboard.Server.Store.Ingestion;

/// <summary>One entry of the IFI timeline: an engine-service fact that differs from the previous good poll.</summary>
internal sealed record EngineChange(string Field, string? OldValue, string? NewValue)
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
}
