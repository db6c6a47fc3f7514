using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Remediation;

/// <summary>What to do about a failed probe: the next step a DBA takes, not a restatement of the error.</summary>
public static class ProbeAdvice
{
    /// <summary>SEC_E_UNTRUSTED_ROOT (0x80090325), the number SqlClient gives a certificate chain it does not trust.</summary>
    public const int UntrustedRoot = -2146893019;

    /// <param name="major">The instance's major version (0 unknown): what to grant differs before and from 2022.</param>
    /// <param name="login">The collector's login on the instance, for the GRANT statement.</param>
    public static string? For(ProbeOutcome probe, int major, string login = RemediationAdvisor.CollectorLoginPlaceholder) => probe.Outcome switch
    {
        OutcomeClass.Ok => null,
        OutcomeClass.NotApplicable => "Nothing to do: this probe does not apply to the instance's platform.",
        // SNI error 26: a named instance registered without a port, and the SQL Server Browser (UDP 1434) did not answer.
        OutcomeClass.Unreachable when Says(probe, "Locating Server/Instance") =>
            "The instance name could not be resolved to a port: check that the SQL Server Browser service runs on the host and that UDP 1434 is open from the collector's machine, or register the instance with its TCP port (no Browser needed).",
        OutcomeClass.Unreachable =>
            "Check that the host name and port resolve and answer from the collector's machine (Test-NetConnection HOST -Port PORT), that the SQL Server service is running and listens on that port, and that no firewall drops the traffic.",
        OutcomeClass.TlsError when Says(probe, "does not support encryption") =>
            "The instance offers no TLS at all (no certificate configured, or a non-SQL Server listener on that port): trusting a certificate cannot help when none is offered. Give the instance a certificate (SQL Server Configuration Manager > Protocols for the instance > Certificate, then restart) so the collector can connect with Encrypt=Mandatory; Encrypt=Optional would send the SQL login without encryption and the collector refuses that.",
        OutcomeClass.TlsError when probe.SqlErrorNumber == UntrustedRoot || Says(probe, "not trusted") =>
            $"Untrusted root (SEC_E_UNTRUSTED_ROOT, {UntrustedRoot}): the instance's certificate is self-signed or issued by a CA the collector's machine does not trust. Install the issuing CA in the collector machine's trusted roots (Windows: Local Computer > Trusted Root Certification Authorities; Linux: copy it to /usr/local/share/ca-certificates and run update-ca-certificates), or pin the certificate on the registration (ServerCertificatePath).",
        OutcomeClass.TlsError =>
            "The TLS handshake failed: check the server certificate's name (HostNameInCertificate) and expiry, that its issuer is trusted on the collector's machine, or pin it on the registration (ServerCertificatePath).",
        OutcomeClass.LoginFailed when Says(probe, "SSPI context") =>
            "Integrated security failed on the collector's machine before any login was sent: the message says whether its Kerberos ticket is missing or expired or the instance's SPN is unknown, and what to set (docs/deployment.md, Kerberos from Linux).",
        OutcomeClass.LoginFailed when probe.SqlErrorNumber == 18452 =>
            "The instance could not accept the collector's Kerberos ticket: the instance's SPN is registered to another account than the one SQL Server runs as (a duplicate or stale SPN), or its keytab is out of date. Find the SPN's account with setspn -Q MSSQLSvc/host:port and register it to the SQL Server service account only (setspn -D, then setspn -S); on Linux, export the service keytab again (mssql-conf set network.kerberoskeytabfile).",
        OutcomeClass.LoginFailed when WindowsLogin(probe) is { } account =>
            $"The instance does not know the collector's Windows account: CREATE LOGIN [{account}] FROM WINDOWS, then grant it the collector's permissions (deploy/sql/grant-collector-permissions.sql with @windows_login = 1).",
        OutcomeClass.LoginFailed =>
            "The collector's login was refused: check that the credential name on the registration exists on the collector, that the login exists on the instance, is enabled and its password is current (error log state codes say which).",
        OutcomeClass.PermissionMissing => ProbePermissions.For(probe.Probe, major) is { } permission
            ? $"Grant {permission} to [{login}]: {string.Join(" ", ProbePermissions.GrantStatements(probe.Probe, major, login))}"
            : $"Grant [{login}] the permission the message names.",
        OutcomeClass.ErrorLogNotEnglish =>
            "The instance writes its error log in another language (a localized SQL Server), so the collector cannot read the start-up IFI line this build reports IFI in: patch to 2012 SP4, 2014 SP3 or 2016 SP1 or later, whose sys.dm_server_services tells in any language; until then, secpol.msc on the host shows who holds \"Perform volume maintenance tasks\".",
        OutcomeClass.BuildTooOld when probe.Probe == ProbeNames.ErrorLog =>
            "No error log kept on the instance still holds the start-up line: it reappears at the next service restart; until then only the host's user rights (secpol.msc) tell.",
        OutcomeClass.BuildTooOld =>
            "This build has no instant_file_initialization_enabled column: patch to 2012 SP4, 2014 SP3 or 2016 SP1 or later. Meanwhile, 2014 SP2 and 2016 RTM write the state to the error log at start-up (the collector reads it: see the error-log probe); older builds write no such line. " + PrivilegeSteps.ZeroingTest,
        OutcomeClass.TraceDisabled =>
            "The default trace is off, so no growth events can be read: EXEC sp_configure 'default trace enabled', 1; RECONFIGURE;",
        OutcomeClass.Timeout when probe.Probe == ProbeNames.Connect && Says(probe, "pre-login") =>
            "The port answered but the pre-login handshake did not finish within Collector:ConnectTimeoutSeconds: check that the port is this instance's (not another service or a stale port after a restart), that no proxy or load balancer holds the handshake, and that the instance is not out of worker threads (THREADPOOL waits). The command timeout plays no part before login.",
        OutcomeClass.Timeout when probe.Probe == ProbeNames.Connect =>
            "The connection was not established within Collector:ConnectTimeoutSeconds: check the network path and the instance's load at poll time; the command timeout plays no part before login.",
        OutcomeClass.Timeout =>
            "The probe timed out: look for blocking or a busy instance at poll time, or raise Collector:CommandTimeoutSeconds.",
        OutcomeClass.ProtocolError =>
            "The instance answered in a way the collector did not expect: note the message and report it with the instance's version.",
        OutcomeClass.HostNotAllowed =>
            "The collector would not connect: the host or port is outside the allow-list of the registration's credential (Credentials:<name>:AllowedHosts) or of the collector (Collector:AllowedNetworks); an entry without a port allows 1433 and named instances only. If the instance really belongs to that credential, add its host name, a wildcard or a CIDR range there, with the port where it is not 1433, as the message says; otherwise register it with the right credential.",
        OutcomeClass.InsecureTransportRefused =>
            "The collector would not send the SQL login to a certificate it does not validate, or the registration names a TLS name or pinned certificate its credential does not allow: give the instance a certificate the collector's machine trusts for its host, or pin it (ServerCertificatePath, a file in Credentials:<name>:CertificateFolder) and clear TrustServerCertificate; list another TLS name in Credentials:<name>:CertificateNames; only if you accept the risk, set Credentials:<name>:AllowTrustServerCertificate=true on the collector.",
        _ => null,
    };

    /// <summary>DOMAIN\account from "Login failed for user 'DOMAIN\account'.": SQL logins have no backslash.</summary>
    static string? WindowsLogin(ProbeOutcome probe)
    {
        const string prefix = "Login failed for user '";
        var message = probe.Message ?? "";
        var start = message.IndexOf(prefix, StringComparison.Ordinal);
        if (start < 0) return null;
        start += prefix.Length;
        var end = message.IndexOf('\'', start);
        var user = end < 0 ? "" : message[start..end];
        return user.Contains('\\') ? user : null;
    }

    static bool Says(ProbeOutcome probe, string words) =>
        probe.Message?.Contains(words, StringComparison.OrdinalIgnoreCase) == true;
}
