using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Facts;

// Rows as SQLite returns them for the compliance facts (times as ISO text, enums as names).

/// <summary>
/// An active instance as the assessment reads it: its registration, its latest state and the rest of its engine's
/// facts, each column in one of them only.
/// </summary>
internal sealed record ActiveInstance(InstanceRegistration Registration, InstanceState State, InstanceFactRow Facts);

/// <summary>
/// What the engine reads of <c>instance_state</c> besides <see cref="InstanceState"/>. A record: the assessment
/// compares an instance's row with the one its last assessment was made from.
/// </summary>
internal sealed record InstanceFactRow
{
    /// <summary>The engine's facts of an instance from its registration, its state and this row (none before its first poll).</summary>
    public static InstanceFacts Facts(InstanceRegistration registration, InstanceState state, InstanceFactRow? extra)
    {
        var serverName = extra?.ServerName;
        var separator = serverName?.IndexOf('\\') ?? -1;
        return new InstanceFacts
        {
            Registration = registration,
            MajorVersion = state.ProductVersion is null ? 0 : ProductVersions.Major(state.ProductVersion),
            ProductVersion = state.ProductVersion,
            EngineEdition = extra?.EngineEdition is { } edition ? (int)edition : null,
            // No identity yet: the platform is unknown, not "Windows because there was no host info".
            Platform = state.ProductVersion is null ? HostPlatform.Unknown : HostPlatforms.Parse(state.HostPlatform),
            Edition = state.Edition,
            MachineName = separator > 0 ? serverName![..separator] : serverName,
            SqlInstanceName = registration.InstanceName ?? (separator > 0 ? serverName![(separator + 1)..] : null),
            Ifi = new IfiObservation(state.IfiState, state.IfiUnknownReason),
            LastGoodPollAt = state.LastGoodPollAt,
            PollInterval = TimeSpan.FromSeconds(Math.Max(1, registration.PollIntervalSeconds)),
            EngineServiceAccount = state.EngineServiceAccount,
            ServiceStartedAt = extra?.EngineLastStartupTime,
            EvidenceSince = extra?.EvidenceSince,
            IsClustered = extra?.IsClustered == 1,
            ClusterNodes = extra?.ClusterNodes?.Split(',', StringSplitOptions.RemoveEmptyEntries),
            IfiOffByTraceFlag = state.IfiState == IfiState.Disabled && extra?.EngineDmvIfiEnabled == "Y",
            AvailabilityGroupsUnknownReason = extra?.AvailabilityGroupsFailure is not { } failure ? null
                : Enum.TryParse<OutcomeClass>(failure, out var outcome) ? outcome.Describe() : failure,
        };
    }

    public long Id { get; init; }
    public long? EngineEdition { get; init; }
    public string? ServerName { get; init; }
    public DateTimeOffset? EngineLastStartupTime { get; init; }
    /// <summary>The oldest default-trace event any poll saw: growth evidence reaches back no further.</summary>
    public DateTimeOffset? EvidenceSince { get; init; }
    public long? IsClustered { get; init; }
    /// <summary>Node names, the current owner first, comma-separated; null when not read.</summary>
    public string? ClusterNodes { get; init; }
    /// <summary>
    /// The DMV's instant_file_initialization_enabled of the engine row in the last good poll, as read (before trace
    /// flag 1806 overrides it; instance_state holds the effective flag).
    /// </summary>
    public string? EngineDmvIfiEnabled { get; init; }
    /// <summary>The availability-groups probe's outcome in the last good poll when it failed; null when it read them.</summary>
    public string? AvailabilityGroupsFailure { get; init; }
    /// <summary>Polls stored for the instance, a late one too: what changes when its files, history or events may have.</summary>
    public long? PollsStored { get; init; }
}

internal sealed class EncryptionFactRow
{
    public long InstanceId { get; init; }
    public long DatabaseId { get; init; }
    public long EncryptionState { get; init; }
}

internal sealed class ObservationRow
{
    public long InstanceId { get; init; }
    public string SnapshotId { get; init; } = "";
    public DateTimeOffset PolledAt { get; init; }
    public string IfiState { get; init; } = "";
    public string? Account { get; init; }
    public DateTimeOffset? Started { get; init; }
    public string? Roles { get; init; }
    public string? Owner { get; init; }
}

internal sealed class AvailabilityGroupRow
{
    public long InstanceId { get; init; }
    public string GroupId { get; init; } = "";
    public string GroupName { get; init; } = "";
    public string LocalRole { get; init; } = "";
    public string? PrimaryReplica { get; init; }
    public long IsContained { get; init; }
    public string Replicas { get; init; } = "";
    public string Listeners { get; init; } = "";
}
