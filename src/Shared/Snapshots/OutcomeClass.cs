namespace IfiDashboard.Shared.Snapshots;

/// <summary>The classified result of a probe: what a DBA has to do differs for each.</summary>
public enum OutcomeClass
{
    Ok,
    NotApplicable,
    BuildTooOld,
    TraceDisabled,
    PermissionMissing,
    LoginFailed,
    TlsError,
    Timeout,
    Unreachable,
    ProtocolError,
    /// <summary>The collector may not connect to this host: outside the credential's allow-list or Collector:AllowedNetworks.</summary>
    HostNotAllowed,
    /// <summary>The collector refused to send a SQL login over a connection whose certificate it would not validate.</summary>
    InsecureTransportRefused,
    /// <summary>
    /// The error log, the only source of the IFI state on a build without the DMV column, is in another language than
    /// English (a localized SQL Server): its translated IFI line is not read, so the state is unknown, never guessed.
    /// </summary>
    ErrorLogNotEnglish,
}

public static class OutcomeClassExtensions
{
    /// <summary>Ordering used to pick the outcome that describes a whole poll: failures to connect first.</summary>
    public static int Severity(this OutcomeClass outcome) => outcome switch
    {
        OutcomeClass.Ok => 0,
        OutcomeClass.NotApplicable => 1,
        OutcomeClass.TraceDisabled => 2,
        OutcomeClass.BuildTooOld or OutcomeClass.ErrorLogNotEnglish => 3,
        OutcomeClass.PermissionMissing => 4,
        OutcomeClass.ProtocolError => 5,
        OutcomeClass.Timeout => 6,
        OutcomeClass.LoginFailed => 7,
        OutcomeClass.TlsError => 8,
        OutcomeClass.Unreachable => 9,
        OutcomeClass.InsecureTransportRefused => 10,
        OutcomeClass.HostNotAllowed => 11,
        _ => 12,
    };

    /// <summary>True when the instance could not be reached at all, so nothing it said is current.</summary>
    public static bool IsConnectionFailure(this OutcomeClass outcome) =>
        outcome is OutcomeClass.Unreachable or OutcomeClass.TlsError or OutcomeClass.LoginFailed or OutcomeClass.Timeout
            or OutcomeClass.HostNotAllowed or OutcomeClass.InsecureTransportRefused;

    /// <summary>
    /// The outcome in a few words: the reason a Viewer is shown for a failed poll or probe, where the collector's raw
    /// client text is for Administrators only (docs/security.md).
    /// </summary>
    public static string Describe(this OutcomeClass outcome) => outcome switch
    {
        OutcomeClass.Unreachable => "unreachable",
        OutcomeClass.TlsError => "TLS / certificate",
        OutcomeClass.LoginFailed => "login failed",
        OutcomeClass.PermissionMissing => "permission missing",
        OutcomeClass.BuildTooOld => "build too old",
        OutcomeClass.Timeout => "timeout",
        OutcomeClass.NotApplicable => "not applicable",
        OutcomeClass.ProtocolError => "protocol error",
        OutcomeClass.HostNotAllowed => "host not allowed",
        OutcomeClass.InsecureTransportRefused => "insecure transport refused",
        OutcomeClass.ErrorLogNotEnglish => "error log not in English",
        _ => outcome.ToString(),
    };
}
