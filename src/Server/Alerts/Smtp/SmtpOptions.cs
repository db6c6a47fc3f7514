namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// <c>Alerts:Smtp</c>. The user name and password come from configuration or the environment
/// (<c>Alerts__Smtp__Password</c>) only: they are never written to the store, to a log or to a page.
/// </summary>
public sealed class SmtpOptions
{
    public string Host { get; set; } = "";

    /// <summary>0 picks the usual port for <see cref="Security"/>: 465, 587 or 25.</summary>
    public int Port { get; set; }

    public SmtpSecurity Security { get; set; } = SmtpSecurity.StartTls;
    public string? UserName { get; set; }
    public string? Password { get; set; }
    public string From { get; set; } = "";

    /// <summary>The name this server gives in EHLO; the machine name when empty.</summary>
    public string? ClientName { get; set; }

    /// <summary>How long each step with the relay may take (connect, greeting and TLS, login, one message) before it is abandoned.</summary>
    public int TimeoutSeconds { get; set; } = 30;

    /// <summary>
    /// A certificate file (PEM or DER) the relay's certificate must equal, for a relay with a self-signed
    /// certificate. When set, it replaces the machine's trust store for this relay; name and chain are not checked.
    /// </summary>
    public string? ServerCertificatePath { get; set; }

    /// <summary>Sending the password over a connection without TLS is refused unless this is true.</summary>
    public bool AllowAuthWithoutTls { get; set; }

    public int EffectivePort => Port > 0 ? Port : Security switch
    {
        SmtpSecurity.SslOnConnect => 465,
        SmtpSecurity.StartTls => 587,
        _ => 25,
    };

    public bool HasCredentials => !string.IsNullOrEmpty(UserName);
}

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
