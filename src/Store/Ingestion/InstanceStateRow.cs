using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>An <c>instance_state</c> row, and how one poll moves it forward.</summary>
internal sealed record InstanceStateRow
{
    public const string Columns = """
        instance_id AS InstanceId, last_poll_id AS LastPollId, last_poll_at AS LastPollAt,
        last_good_poll_id AS LastGoodPollId, last_good_poll_at AS LastGoodPollAt,
        product_version AS ProductVersion, product_level AS ProductLevel, product_update_level AS ProductUpdateLevel,
        edition AS Edition, engine_edition AS EngineEdition, host_platform AS HostPlatform, server_name AS ServerName,
        engine_service_account AS EngineServiceAccount, engine_ifi_enabled AS EngineIfiEnabled,
        engine_last_startup_time AS EngineLastStartupTime, ifi_state AS IfiState, ifi_unknown_reason AS IfiUnknownReason,
        last_outcome AS LastOutcome, last_message AS LastMessage
        """;

    public long InstanceId { get; init; }
    public long LastPollId { get; init; }
    public DateTimeOffset LastPollAt { get; init; }
    public long? LastGoodPollId { get; init; }
    public DateTimeOffset? LastGoodPollAt { get; init; }
    public string? ProductVersion { get; init; }
    public string? ProductLevel { get; init; }
    public string? ProductUpdateLevel { get; init; }
    public string? Edition { get; init; }
    public long? EngineEdition { get; init; }
    public string? HostPlatform { get; init; }
    public string? ServerName { get; init; }
    public string? EngineServiceAccount { get; init; }
    public string? EngineIfiEnabled { get; init; }
    public DateTimeOffset? EngineLastStartupTime { get; init; }
    public string IfiState { get; init; } = "";
    public string? IfiUnknownReason { get; init; }
    public string LastOutcome { get; init; } = "";
    public string? LastMessage { get; init; }

    /// <summary>
    /// The state after <paramref name="poll"/>. Outcome and IFI state always follow the latest poll; identity follows
    /// any poll that read it, and the engine service any poll that read the services DMV, so an unreachable poll keeps
    /// what earlier polls learned. The engine's IFI flag is the determined state ("Y"/"N"), from the DMV or, on builds
    /// without its column, from the start-up error-log line, so the timeline follows either source.
    /// </summary>
    public static InstanceStateRow After(InstanceStateRow? previous, StoredSnapshot poll)
    {
        var snapshot = poll.Snapshot;
        var identity = snapshot.Identity;
        var engine = poll.ReadServices ? snapshot.EngineService : null;
        var ifi = IfiObservation.From(snapshot);
        var ifiFlag = ifi.State switch { Shared.Snapshots.IfiState.Enabled => "Y", Shared.Snapshots.IfiState.Disabled => "N", _ => engine?.InstantFileInitializationEnabled };
        var overall = snapshot.Overall;
        var pollAt = snapshot.FinishedAt;

        return new InstanceStateRow
        {
            InstanceId = snapshot.InstanceId,
            LastPollId = poll.PollId,
            LastPollAt = pollAt,
            LastGoodPollId = poll.IsGood ? poll.PollId : previous?.LastGoodPollId,
            LastGoodPollAt = poll.IsGood ? pollAt : previous?.LastGoodPollAt,
            ProductVersion = identity is null ? previous?.ProductVersion : identity.ProductVersion,
            ProductLevel = identity is null ? previous?.ProductLevel : identity.ProductLevel,
            ProductUpdateLevel = identity is null ? previous?.ProductUpdateLevel : identity.ProductUpdateLevel,
            Edition = identity is null ? previous?.Edition : identity.Edition,
            EngineEdition = identity is null ? previous?.EngineEdition : identity.EngineEdition,
            HostPlatform = identity is null ? previous?.HostPlatform : identity.HostPlatform,
            ServerName = identity is null ? previous?.ServerName : identity.ServerName,
            EngineServiceAccount = engine is null ? previous?.EngineServiceAccount : engine.ServiceAccount,
            EngineIfiEnabled = engine is null ? previous?.EngineIfiEnabled : ifiFlag,
            EngineLastStartupTime = engine is null ? previous?.EngineLastStartupTime : engine.LastStartupTime,
            IfiState = ifi.State.ToString(),
            IfiUnknownReason = ifi.UnknownReason,
            LastOutcome = overall.Outcome.ToString(),
            LastMessage = overall.Message,
        };
    }
}
