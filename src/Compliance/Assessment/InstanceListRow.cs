using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>One line of the instance list: the registration joined with its latest known state.</summary>
public sealed record InstanceListRow(
    long Id,
    string Name,
    string Environment,
    string? Owner,
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
