using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Pages.Detail;

/// <summary>What to do about a failed probe: the next step a DBA takes, not a restatement of the error.</summary>
public static class ProbeAdvice
{
    /// <param name="major">The instance's major version (0 unknown): what to grant differs before and from 2022.</param>
    public static string? For(ProbeOutcome probe, int major) => probe.Outcome switch
    {
        OutcomeClass.Ok => null,
        OutcomeClass.NotApplicable => "Nothing to do: this probe does not apply to the instance's platform.",
        OutcomeClass.Unreachable =>
            "Check that the host name and port resolve and answer from the collector's machine (Test-NetConnection HOST -Port PORT), that the SQL Server service and Browser are running, and that no firewall drops the traffic.",
        OutcomeClass.TlsError =>
            "The TLS handshake failed: check the server certificate's name and expiry, or set Encrypt / TrustServerCertificate / HostNameInCertificate on the registration to match how the instance is configured.",
        OutcomeClass.LoginFailed =>
            "The collector's login was refused: check that the credential name on the registration exists on the collector, that the login exists on the instance, is enabled and its password is current (error log state codes say which).",
        OutcomeClass.PermissionMissing => ProbePermissions.For(probe.Probe, major) is { } permission
            ? $"Grant the collector's login {permission}: {string.Join(" ", ProbePermissions.GrantStatements(probe.Probe, major, "<collector login>"))}"
            : "Check which permission the message names and grant it to the collector's login.",
        OutcomeClass.BuildTooOld when probe.Probe == ProbeNames.ErrorLog =>
            "No error log kept on the instance still holds the start-up line: it reappears at the next service restart; until then only the host's user rights (secpol.msc) tell.",
        OutcomeClass.BuildTooOld =>
            "This build has no instant_file_initialization_enabled column: patch to 2012 SP4, 2014 SP3 or 2016 SP1 or later; meanwhile check the error log for 'Database Instant File Initialization'.",
        OutcomeClass.TraceDisabled =>
            "The default trace is off, so no growth events can be read: EXEC sp_configure 'default trace enabled', 1; RECONFIGURE;",
        OutcomeClass.Timeout =>
            "The probe timed out: look for blocking or a busy instance at poll time, or raise Collector:CommandTimeoutSeconds.",
        OutcomeClass.ProtocolError =>
            "The instance answered in a way the collector did not expect: note the message and report it with the instance's version.",
        OutcomeClass.HostNotAllowed =>
            "The collector would not connect: the host is outside the allow-list of the registration's credential (Credentials:<name>:AllowedHosts) or of the collector (Collector:AllowedNetworks). If the instance really belongs to that credential, add its host name, a wildcard or a CIDR range there, as the message says; otherwise register it with the right credential.",
        OutcomeClass.InsecureTransportRefused =>
            "The collector would not send the SQL login to a certificate it does not validate: give the instance a certificate the collector's machine trusts, or pin it (ServerCertificatePath) and clear TrustServerCertificate; only if you accept the risk, set Credentials:<name>:AllowTrustServerCertificate=true on the collector.",
        _ => null,
    };
}
