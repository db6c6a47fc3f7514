namespace IfiDashboard.Shared.Snapshots;

public enum IfiState
{
    Unknown,
    Enabled,
    Disabled,
}

/// <summary>What a poll says about IFI on an instance, with the reason when it cannot say.</summary>
public sealed record IfiObservation(IfiState State, string? UnknownReason)
{
    /// <summary>
    /// Trace flags that disable instant file initialization for data files whatever the service account holds: 1806
    /// (Microsoft's trace flag list; sp_Blitz check 74) and 1805 (Microsoft's SQL Server engineering blog on IFI,
    /// techcommunity ba-p/3199185). Either one on globally decides.
    /// </summary>
    public static readonly IReadOnlyList<int> DisablingTraceFlags = [1805, 1806];

    /// <summary>The disabling flags among an instance's global trace flags, in ascending order (empty when none or unread).</summary>
    public static IReadOnlyList<int> DisablingFlagsIn(IReadOnlyList<int>? globalTraceFlags) =>
        globalTraceFlags is null ? [] : DisablingTraceFlags.Where(globalTraceFlags.Contains).ToList();

    public static IfiObservation From(InstanceSnapshot snapshot)
    {
        var observed = FromSources(snapshot);
        // [U] whether the DMV column and the start-up line reflect 1805/1806; the flag decides what happens to data files.
        return observed.State == IfiState.Enabled && DisablingFlagsIn(snapshot.GlobalTraceFlags).Count > 0
            ? new(IfiState.Disabled, null)
            : observed;
    }

    static IfiObservation FromSources(InstanceSnapshot snapshot)
    {
        var connect = snapshot.Probes.FirstOrDefault(p => p.Outcome.IsConnectionFailure());
        if (connect is not null)
            return new(IfiState.Unknown, connect.Outcome.Describe());

        var services = snapshot.Probes.FirstOrDefault(p => p.Probe == ProbeNames.Services);
        if (services is null)
            return new(IfiState.Unknown, "not polled yet");
        // A build without the IFI column may still have written the start-up line: the privilege is read at start-up,
        // so that line is the live state.
        if (services.Outcome == OutcomeClass.BuildTooOld && snapshot.StartupIfiLine is { } line)
            return new(line == "enabled" ? IfiState.Enabled : IfiState.Disabled, null);
        // The start-up line could not be read: why (a refused error log) says more than "build too old".
        if (services.Outcome == OutcomeClass.BuildTooOld
            && snapshot.Probes.FirstOrDefault(p => p.Probe == ProbeNames.ErrorLog) is { Outcome: not (OutcomeClass.Ok or OutcomeClass.BuildTooOld) } errorLog)
            return new(IfiState.Unknown, errorLog.Outcome == OutcomeClass.PermissionMissing ? ErrorLogPermissionMissing : errorLog.Outcome.Describe());
        if (services.Outcome != OutcomeClass.Ok)
            return new(IfiState.Unknown, services.Outcome.Describe());

        return snapshot.EngineService?.InstantFileInitializationEnabled switch
        {
            "Y" => new(IfiState.Enabled, null),
            "N" => new(IfiState.Disabled, null),
            _ => new(IfiState.Unknown, "engine service row not found"),
        };
    }

    /// <summary>The reason when the error log holding the start-up line was refused (not the services DMV).</summary>
    public const string ErrorLogPermissionMissing = "permission missing (error log)";
}
