namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>How the connection to the relay is protected.</summary>
public enum SmtpSecurity
{
    /// <summary>Plain connection upgraded with STARTTLS before anything else is said (usually port 587). The
    /// upgrade is required: a server that does not offer it is an error, never a silent fall-back to clear text.</summary>
    StartTls,

    /// <summary>TLS from the first byte, "implicit TLS" (usually port 465).</summary>
    SslOnConnect,

    /// <summary>No TLS at all (a relay on localhost, port 25).</summary>
    None,
}
