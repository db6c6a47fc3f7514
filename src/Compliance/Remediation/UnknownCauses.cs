using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Remediation;

/// <summary>
/// Recovers the failure class from the reason text of <see cref="IfiObservation"/> when the caller did not pass the
/// class itself. The texts are the ones IfiObservation writes; anything else yields null.
/// </summary>
public static class UnknownCauses
{
    public static OutcomeClass? FromReason(string? reason) => reason?.Trim().ToLowerInvariant() switch
    {
        "build too old" => OutcomeClass.BuildTooOld,
        "permission missing" or IfiObservation.ErrorLogPermissionMissing => OutcomeClass.PermissionMissing,
        "unreachable" => OutcomeClass.Unreachable,
        "tls / certificate" => OutcomeClass.TlsError,
        "login failed" => OutcomeClass.LoginFailed,
        "timeout" => OutcomeClass.Timeout,
        "protocol error" => OutcomeClass.ProtocolError,
        "host not allowed" => OutcomeClass.HostNotAllowed,
        "insecure transport refused" => OutcomeClass.InsecureTransportRefused,
        "error log not in english" => OutcomeClass.ErrorLogNotEnglish,
        _ => null,
    };

    public const string NotPolledYet = "not polled yet";
}
