using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>
/// An instance's latest stored state (table <c>instance_state</c>, kept across failed polls): version, platform,
/// account, IFI, last poll and its outcome. Who the instance is lives in its registration alone.
/// </summary>
public sealed record InstanceState(
    string? ProductVersion,
    string? ProductLevel,
    string? ProductUpdateLevel,
    string? Edition,
    string? HostPlatform,
    string? EngineServiceAccount,
    IfiState IfiState,
    string? IfiUnknownReason,
    DateTimeOffset? LastPollAt,
    DateTimeOffset? LastGoodPollAt,
    OutcomeClass? LastOutcome,
    string? LastMessage);
