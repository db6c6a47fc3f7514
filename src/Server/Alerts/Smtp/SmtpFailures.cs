using System.Net.Security;
using System.Net.Sockets;
using MailKit;
using MailKit.Net.Smtp;
using MailKit.Security;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// Turns what went wrong into what to change: the one place where MailKit's exceptions become advice. A DBA reading
/// the alert history should not need a packet capture to learn that port 465 wants SslOnConnect or that Office 365
/// has SMTP AUTH switched off for the mailbox. No message repeats a password: none of the texts used here has one.
/// </summary>
internal static class SmtpFailures
{
    /// <summary>The advice for a failure in <paramref name="stage"/>, or null for an exception that is a bug, not the relay.</summary>
    /// <param name="timedOut">The step's deadline (Alerts:Smtp:TimeoutSeconds) ended it, whatever was thrown.</param>
    public static SmtpDeliveryException? Explain(Exception e, SmtpStage stage, SmtpOptions options, SmtpTlsCheck? tls, bool timedOut)
    {
        var host = options.Host;
        var port = options.EffectivePort;
        if (timedOut)
            return Timeout(e is SslHandshakeException ? SmtpStage.TlsHandshake : stage, host, port, options.Security, options.TimeoutSeconds, e);
        return e switch
        {
            SocketException socket when stage == SmtpStage.Connect => Socket(socket, host, port),
            SslHandshakeException => Handshake(e, host, port, options.Security, tls),
            NotSupportedException when stage == SmtpStage.Greeting && options.Security == SmtpSecurity.StartTls => NoStartTls(host, port, e),
            NotSupportedException when stage == SmtpStage.Authenticate => NoAuth(host, options.Security, e),
            AuthenticationException auth => Rejected(SmtpStage.Authenticate, auth.InnerException as SmtpCommandException, auth.Message, e),
            SmtpCommandException command => Rejected(StageOf(command, stage), command, command.Message, e),
            ServiceNotAuthenticatedException => new(SmtpStage.MailFrom,
                $"The relay answered '530 {e.Message}': it requires a login. Set Alerts:Smtp:UserName and Alerts:Smtp:Password.",
                replyCode: 530, isTransient: false, inner: e),
            SmtpProtocolException when stage == SmtpStage.Greeting && options.Security != SmtpSecurity.SslOnConnect => new(stage,
                $"{host}:{port} closed the connection or did not answer as an SMTP server during the greeting ({e.Message}). If the port expects TLS from the first byte (usually 465), set Alerts:Smtp:Security to SslOnConnect.", inner: e),
            SmtpProtocolException => new(stage,
                $"The relay {host}:{port} closed the connection or answered outside SMTP during {Describe(stage)} ({e.Message}). The message will be retried; if it keeps happening, check the relay's log for why it drops this server.", inner: e),
            ServiceNotConnectedException => new(stage, $"The connection to {host}:{port} was lost before {Describe(stage)}; the message will be retried.", inner: e),
            IOException or SocketException => new(stage, $"The connection to {host}:{port} broke during {Describe(stage)} ({Innermost(e).Message}); the message will be retried.", inner: e),
            _ => null,
        };
    }

    public static SmtpDeliveryException PlainTextAuth(string host) => new(SmtpStage.Authenticate,
        $"Refusing to send the SMTP password to {host} without TLS. Use Security=StartTls or SslOnConnect, or set Alerts:Smtp:AllowAuthWithoutTls=true for a relay on a trusted network.",
        isTransient: false);

    static SmtpDeliveryException Socket(SocketException e, string host, int port) => e.SocketErrorCode switch
    {
        SocketError.ConnectionRefused => new(SmtpStage.Connect,
            $"Nothing accepts connections on {host}:{port} (connection refused). Check Alerts:Smtp:Host and Alerts:Smtp:Port, and that the relay is running.", inner: e),
        SocketError.HostNotFound or SocketError.NoData or SocketError.TryAgain => new(SmtpStage.Connect,
            $"The relay's name '{host}' does not resolve from this server. Check Alerts:Smtp:Host and this server's DNS.", inner: e),
        SocketError.TimedOut or SocketError.HostUnreachable or SocketError.NetworkUnreachable => new(SmtpStage.Connect,
            $"{host}:{port} cannot be reached ({e.SocketErrorCode}). A firewall between this server and the relay may block port {port}.", inner: e),
        _ => new(SmtpStage.Connect, $"Connecting to {host}:{port} failed: {e.Message}", inner: e),
    };

    static SmtpDeliveryException Timeout(SmtpStage stage, string host, int port, SmtpSecurity security, int seconds, Exception e) => stage switch
    {
        SmtpStage.Connect => new(stage,
            $"No answer from {host}:{port} within {seconds} s: a firewall probably drops the traffic. Check Alerts:Smtp:Host and Port.", inner: e),
        SmtpStage.Greeting when security != SmtpSecurity.SslOnConnect => new(stage,
            $"{host}:{port} accepted the connection but did not greet this server within {seconds} s. Port {port} may expect TLS from the first byte: set Alerts:Smtp:Security to SslOnConnect (usually port 465).", inner: e),
        SmtpStage.TlsHandshake when security == SmtpSecurity.SslOnConnect => new(stage,
            $"The TLS handshake with {host}:{port} did not finish within {seconds} s. If the port expects STARTTLS (usually 587) or no TLS (25), set Alerts:Smtp:Security to StartTls or None.", inner: e),
        _ => new(stage, $"The relay {host}:{port} stopped answering during {Describe(stage)} (no reply within {seconds} s; Alerts:Smtp:TimeoutSeconds).", inner: e),
    };

    static SmtpDeliveryException Handshake(Exception e, string host, int port, SmtpSecurity security, SmtpTlsCheck? tls)
    {
        if (tls is { PinMismatch: true })
            return new(SmtpStage.TlsHandshake, "The relay's certificate is not the one in Alerts:Smtp:ServerCertificatePath.", isTransient: false, inner: e);
        var errors = tls?.Errors ?? SslPolicyErrors.None;
        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateNameMismatch))
            return new(SmtpStage.TlsHandshake,
                $"The relay's certificate does not name '{host}'. Set Alerts:Smtp:Host to a name on the certificate (not an IP address or alias).",
                isTransient: false, inner: e);
        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateChainErrors))
            return new(SmtpStage.TlsHandshake,
                "The relay's certificate is not trusted by this server (self-signed, expired, or its CA is not installed). Install the CA, or pin the certificate with Alerts:Smtp:ServerCertificatePath.",
                isTransient: false, inner: e);
        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateNotAvailable))
            return new(SmtpStage.TlsHandshake, $"The relay {host}:{port} presented no certificate.", isTransient: false, inner: e);
        return security == SmtpSecurity.SslOnConnect
            ? new(SmtpStage.TlsHandshake,
                $"The TLS handshake with {host}:{port} failed ({Innermost(e).Message}). If this port speaks plain SMTP first (587 with STARTTLS, or 25), set Alerts:Smtp:Security to StartTls or None.", inner: e)
            : new(SmtpStage.TlsHandshake, $"The TLS handshake after STARTTLS with {host}:{port} failed ({Innermost(e).Message}).", inner: e);
    }

    static SmtpDeliveryException NoStartTls(string host, int port, Exception e) => new(SmtpStage.StartTls,
        $"{host}:{port} does not offer STARTTLS, so the connection cannot be encrypted. Use the relay's TLS port with Alerts:Smtp:Security=SslOnConnect (usually 465), or Security=None for a relay on this machine.",
        isTransient: false, inner: e);

    static SmtpDeliveryException NoAuth(string host, SmtpSecurity security, Exception e) => new(SmtpStage.Authenticate,
        security == SmtpSecurity.None
            ? $"{host} offers no AUTH on a connection without TLS. Use Security=StartTls, or remove Alerts:Smtp:UserName if the relay accepts this server without a login."
            : $"{host} offers no AUTH (or no login mechanism this server supports). Remove Alerts:Smtp:UserName if the relay accepts this server by its address.",
        isTransient: false, inner: e);

    static SmtpStage StageOf(SmtpCommandException e, SmtpStage stage) => e.ErrorCode switch
    {
        SmtpErrorCode.SenderNotAccepted => SmtpStage.MailFrom,
        SmtpErrorCode.RecipientNotAccepted => SmtpStage.RecipientTo,
        SmtpErrorCode.MessageNotAccepted => SmtpStage.Data,
        _ => stage,
    };

    /// <param name="reply">The relay's answer, when MailKit kept it; <paramref name="text"/> otherwise says what happened.</param>
    static SmtpDeliveryException Rejected(SmtpStage stage, SmtpCommandException? reply, string text, Exception e)
    {
        int? code = reply is null ? null : (int)reply.StatusCode;
        var said = reply is null ? $"The relay refused: {text}" : $"The relay answered '{code} {reply.Message}'".TrimEnd();
        var advice = (stage, code) switch
        {
            (_, >= 400 and < 500) => "This is temporary; the message will be retried.",
            (SmtpStage.Authenticate, 535) => "The user name or password is wrong: check Alerts:Smtp:UserName and Alerts:Smtp:Password. Office 365 also answers this when SMTP AUTH is disabled for the mailbox; Gmail needs an app password.",
            (SmtpStage.Authenticate, 534) => "The relay wants a stronger login: Gmail needs an app password (or OAuth); Office 365 needs SMTP AUTH enabled for the mailbox.",
            (SmtpStage.Authenticate, 530 or 538) => "The relay wants TLS before a login: set Alerts:Smtp:Security to StartTls or SslOnConnect.",
            (SmtpStage.Authenticate, 504) => "The relay does not accept this login mechanism.",
            (SmtpStage.Authenticate, _) => "Check Alerts:Smtp:UserName and Alerts:Smtp:Password.",
            (SmtpStage.MailFrom or SmtpStage.RecipientTo, 530) => "The relay requires a login: set Alerts:Smtp:UserName and Alerts:Smtp:Password.",
            (SmtpStage.MailFrom, _) => "The relay refuses the sender: Alerts:Smtp:From must be an address this relay may send as (often the login's own mailbox or a verified sender).",
            (SmtpStage.RecipientTo, _) => $"The relay refuses the recipient {reply?.Mailbox?.Address}: check the address in Alerts:Routes / Alerts:DefaultTo, and that the relay lets this server (or login) send to that domain.",
            (SmtpStage.Data, _) => "The relay refused the message itself (size or content policy).",
            (SmtpStage.Greeting, _) => "The relay refuses this server: check that it accepts connections from this server's address, or set Alerts:Smtp:ClientName to a name it accepts in EHLO.",
            _ => "",
        };
        var transient = code is >= 400 and < 500;
        return new(stage, $"{said} during {Describe(stage)}. {advice}".TrimEnd(), code, transient, e);
    }

    static string Describe(SmtpStage stage) => stage switch
    {
        SmtpStage.Configuration => "configuration",
        SmtpStage.Connect => "connect",
        SmtpStage.TlsHandshake => "the TLS handshake",
        SmtpStage.Greeting => "the greeting (EHLO)",
        SmtpStage.StartTls => "STARTTLS",
        SmtpStage.Authenticate => "AUTH (login)",
        SmtpStage.MailFrom => "MAIL FROM",
        SmtpStage.RecipientTo => "RCPT TO",
        SmtpStage.Data => "the message transfer (DATA)",
        _ => stage.ToString(),
    };

    static Exception Innermost(Exception e)
    {
        while (e.InnerException is not null) e = e.InnerException;
        return e;
    }
}
