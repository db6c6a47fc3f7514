using System.Net.Security;
using System.Net.Sockets;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// Turns what went wrong into what to change. A DBA reading the alert history should not need a packet capture to
/// learn that port 465 wants SslOnConnect or that Office 365 has SMTP AUTH switched off for the mailbox.
/// </summary>
internal static class SmtpFailures
{
    public static SmtpDeliveryException Socket(SocketException e, string host, int port) => e.SocketErrorCode switch
    {
        SocketError.ConnectionRefused => new(SmtpStage.Connect,
            $"Nothing accepts connections on {host}:{port} (connection refused). Check Alerts:Smtp:Host and Alerts:Smtp:Port, and that the relay is running.", inner: e),
        SocketError.HostNotFound or SocketError.NoData or SocketError.TryAgain => new(SmtpStage.Connect,
            $"The relay's name '{host}' does not resolve from this server. Check Alerts:Smtp:Host and this server's DNS.", inner: e),
        SocketError.TimedOut or SocketError.HostUnreachable or SocketError.NetworkUnreachable => new(SmtpStage.Connect,
            $"{host}:{port} cannot be reached ({e.SocketErrorCode}). A firewall between this server and the relay may block port {port}.", inner: e),
        _ => new(SmtpStage.Connect, $"Connecting to {host}:{port} failed: {e.Message}", inner: e),
    };

    public static SmtpDeliveryException Timeout(SmtpStage stage, string host, int port, SmtpSecurity security, int seconds) => stage switch
    {
        SmtpStage.Connect => new(stage,
            $"No answer from {host}:{port} within {seconds} s: a firewall probably drops the traffic. Check Alerts:Smtp:Host and Port."),
        SmtpStage.Greeting when security != SmtpSecurity.SslOnConnect => new(stage,
            $"{host}:{port} accepted the connection but sent no SMTP greeting within {seconds} s. Port {port} may expect TLS from the first byte: set Alerts:Smtp:Security to SslOnConnect (usually port 465)."),
        SmtpStage.TlsHandshake => new(stage,
            $"The TLS handshake with {host}:{port} did not finish within {seconds} s. If the port expects STARTTLS (usually 587) or no TLS (25), set Alerts:Smtp:Security to StartTls or None."),
        _ => new(stage, $"The relay {host}:{port} stopped answering during {Describe(stage)} (no reply within {seconds} s; Alerts:Smtp:TimeoutSeconds)."),
    };

    public static SmtpDeliveryException Handshake(Exception e, string host, int port, SmtpSecurity security, SslPolicyErrors errors)
    {
        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateNameMismatch))
            return new(SmtpStage.TlsHandshake,
                $"The relay's certificate does not name '{host}'. Set Alerts:Smtp:Host to a name on the certificate (not an IP address or alias).",
                isTransient: false, inner: e);
        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateChainErrors))
            return new(SmtpStage.TlsHandshake,
                $"The relay's certificate is not trusted by this server (self-signed, or its CA is not installed). Install the CA, or pin the certificate with Alerts:Smtp:ServerCertificatePath.",
                isTransient: false, inner: e);
        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateNotAvailable))
            return new(SmtpStage.TlsHandshake, $"The relay {host}:{port} presented no certificate.", isTransient: false, inner: e);
        return security == SmtpSecurity.SslOnConnect
            ? new(SmtpStage.TlsHandshake,
                $"The TLS handshake with {host}:{port} failed ({e.Message}). If this port speaks plain SMTP first (587 with STARTTLS, or 25), set Alerts:Smtp:Security to StartTls or None.", inner: e)
            : new(SmtpStage.TlsHandshake, $"The TLS handshake after STARTTLS with {host}:{port} failed ({e.Message}).", inner: e);
    }

    public static SmtpDeliveryException NotSmtp(SmtpStage stage, string host, int port, SmtpSecurity security, Exception e) =>
        security == SmtpSecurity.SslOnConnect || stage != SmtpStage.Greeting
            ? new(stage, $"{host}:{port} did not answer as an SMTP server during {Describe(stage)} ({e.Message}).", inner: e)
            : new(stage, $"{host}:{port} did not send an SMTP greeting ({e.Message}). If the port expects TLS from the first byte (usually 465), set Alerts:Smtp:Security to SslOnConnect.", inner: e);

    public static SmtpDeliveryException NoStartTls(string host, int port) => new(SmtpStage.StartTls,
        $"{host}:{port} does not offer STARTTLS, so the connection cannot be encrypted. Use the relay's TLS port with Alerts:Smtp:Security=SslOnConnect (usually 465), or Security=None for a relay on this machine.",
        isTransient: false);

    public static SmtpDeliveryException PlainTextAuth(string host) => new(SmtpStage.Authenticate,
        $"Refusing to send the SMTP password to {host} without TLS. Use Security=StartTls or SslOnConnect, or set Alerts:Smtp:AllowAuthWithoutTls=true for a relay on a trusted network.",
        isTransient: false);

    public static SmtpDeliveryException NoAuth(string host, SmtpSecurity security) => new(SmtpStage.Authenticate,
        security == SmtpSecurity.None
            ? $"{host} offers no AUTH on a connection without TLS. Use Security=StartTls, or remove Alerts:Smtp:UserName if the relay accepts this server without a login."
            : $"{host} offers no AUTH (or no PLAIN/LOGIN mechanism). Remove Alerts:Smtp:UserName if the relay accepts this server by its address.",
        isTransient: false);

    public static SmtpDeliveryException Rejected(SmtpStage stage, SmtpReply reply, string? detail = null)
    {
        var said = $"The relay answered '{reply.Text}'";
        var advice = (stage, reply.Code) switch
        {
            (_, >= 400 and < 500) => "This is temporary; the message will be retried.",
            (SmtpStage.Authenticate, 535) => "The user name or password is wrong: check Alerts:Smtp:UserName and Alerts:Smtp:Password. Office 365 also answers this when SMTP AUTH is disabled for the mailbox; Gmail needs an app password.",
            (SmtpStage.Authenticate, 534) => "The relay wants a stronger login: Gmail needs an app password (or OAuth); Office 365 needs SMTP AUTH enabled for the mailbox.",
            (SmtpStage.Authenticate, 530 or 538) => "The relay wants TLS before a login: set Alerts:Smtp:Security to StartTls or SslOnConnect.",
            (SmtpStage.Authenticate, 504) => "The relay does not accept this login mechanism.",
            (SmtpStage.MailFrom, 530) => "The relay requires a login: set Alerts:Smtp:UserName and Alerts:Smtp:Password.",
            (SmtpStage.MailFrom, _) => $"The relay refuses the sender: Alerts:Smtp:From must be an address this relay may send as (often the login's own mailbox or a verified sender).",
            (SmtpStage.RecipientTo, 530) => "The relay requires a login: set Alerts:Smtp:UserName and Alerts:Smtp:Password.",
            (SmtpStage.RecipientTo, _) => $"The relay refuses the recipient {detail}: check the address in Alerts:Routes / Alerts:DefaultTo, and that the relay lets this server (or login) send to that domain.",
            (SmtpStage.Data, _) => "The relay refused the message itself (size or content policy).",
            (SmtpStage.Hello, _) => "The relay refused this server's greeting: set Alerts:Smtp:ClientName to a name the relay accepts.",
            _ => "",
        };
        return new(stage, $"{said} during {Describe(stage)}. {advice}".TrimEnd(), reply.Code, isTransient: reply.IsTransientFailure);
    }

    public static string Describe(SmtpStage stage) => stage switch
    {
        SmtpStage.Configuration => "configuration",
        SmtpStage.Connect => "connect",
        SmtpStage.TlsHandshake => "the TLS handshake",
        SmtpStage.Greeting => "the greeting",
        SmtpStage.Hello => "EHLO",
        SmtpStage.StartTls => "STARTTLS",
        SmtpStage.Authenticate => "AUTH (login)",
        SmtpStage.MailFrom => "MAIL FROM",
        SmtpStage.RecipientTo => "RCPT TO",
        SmtpStage.Data => "DATA",
        _ => stage.ToString(),
    };
}
