using System.Net.Mail;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Text;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// A small SMTP client of our own (RFC 5321): connect, optional implicit TLS or STARTTLS, EHLO, AUTH PLAIN or LOGIN,
/// MAIL FROM, RCPT TO, DATA, QUIT. Every failure becomes a <see cref="SmtpDeliveryException"/> that says what to
/// change. Why not System.Net.Mail or MailKit: docs/decisions/0004-smtp-client.md.
/// </summary>
public sealed class SmtpMailClient(TimeProvider time)
{
    /// <summary>Returns once the relay has accepted the message (250 after DATA); throws otherwise.</summary>
    public async Task SendAsync(SmtpOptions options, OutgoingMail mail, CancellationToken ct)
    {
        Validate(options, mail);
        var host = options.Host;
        var port = options.EffectivePort;
        var message = MimeMessageWriter.Write(options.From, mail, time.GetUtcNow());
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(options.TimeoutSeconds), time);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(ct, deadline.Token);
        var tls = new SmtpTlsCheck(options.ServerCertificatePath);
        var stage = SmtpStage.Connect;
        try
        {
            using var tcp = new TcpClient();
            await tcp.ConnectAsync(host, port, linked.Token);
            var conversation = new Conversation(tcp.GetStream(), options, tls, linked.Token);
            stage = await conversation.RunAsync(message, mail.To, s => stage = s);
        }
        catch (SmtpDeliveryException)
        {
            throw;
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested && !ct.IsCancellationRequested)
        {
            throw SmtpFailures.Timeout(stage, host, port, options.Security, options.TimeoutSeconds);
        }
        catch (SocketException e) when (stage == SmtpStage.Connect)
        {
            throw SmtpFailures.Socket(e, host, port);
        }
        catch (Exception e) when (stage == SmtpStage.TlsHandshake && e is AuthenticationException or IOException)
        {
            throw tls.PinMismatch
                ? new SmtpDeliveryException(stage, $"The relay's certificate is not the one in Alerts:Smtp:ServerCertificatePath.", isTransient: false, inner: e)
                : SmtpFailures.Handshake(e, host, port, options.Security, tls.Errors);
        }
        catch (Exception e) when (e is IOException or InvalidDataException or SocketException)
        {
            throw SmtpFailures.NotSmtp(stage, host, port, options.Security, e);
        }
    }

    static void Validate(SmtpOptions options, OutgoingMail mail)
    {
        static SmtpDeliveryException Invalid(string message) => new(SmtpStage.Configuration, message, isTransient: false);
        if (string.IsNullOrWhiteSpace(options.Host)) throw Invalid("Alerts:Smtp:Host is not set.");
        if (!IsPlainAddress(options.From)) throw Invalid($"Alerts:Smtp:From '{options.From}' is not a plain e-mail address (name@domain).");
        if (mail.To.Count == 0) throw Invalid("The message has no recipients: set Alerts:DefaultTo or a route's To.");
        foreach (var to in mail.To)
            if (!IsPlainAddress(to)) throw Invalid($"'{to}' is not a plain e-mail address (name@domain).");
        if (options.HasCredentials && string.IsNullOrEmpty(options.Password))
            throw Invalid("Alerts:Smtp:UserName is set but Alerts:Smtp:Password is empty (set it in the environment: Alerts__Smtp__Password).");
    }

    // ASCII only (no SMTPUTF8) and nothing that could break out of "<...>" on a command line.
    static bool IsPlainAddress(string address) =>
        address.All(c => c is > ' ' and <= '~' and not ('<' or '>' or ',' or ';')) &&
        MailAddress.TryCreate(address, out var parsed) && parsed.Address == address;

    /// <summary>One connection's dialogue; <c>stageChanged</c> keeps the caller's view of where it is for error messages.</summary>
    sealed class Conversation(Stream network, SmtpOptions options, SmtpTlsCheck tls, CancellationToken ct)
    {
        SmtpChannel _channel = new(network);
        bool _secure;
        Action<SmtpStage> _stage = _ => { };

        public async Task<SmtpStage> RunAsync(string message, IReadOnlyList<string> recipients, Action<SmtpStage> stageChanged)
        {
            _stage = stageChanged;
            if (options.Security == SmtpSecurity.SslOnConnect)
                await UpgradeAsync();

            _stage(SmtpStage.Greeting);
            await ExpectAsync(SmtpStage.Greeting, 220);
            var capabilities = await HelloAsync();

            if (options.Security == SmtpSecurity.StartTls)
            {
                _stage(SmtpStage.StartTls);
                if (!capabilities.Keywords.Contains("STARTTLS")) throw SmtpFailures.NoStartTls(options.Host, options.EffectivePort);
                await CommandAsync(SmtpStage.StartTls, "STARTTLS", 220);
                // Anything already buffered was sent in clear text before the handshake: never treat it as protected.
                if (_channel.HasBufferedInput)
                    throw new SmtpDeliveryException(SmtpStage.StartTls, "The relay sent data before the TLS handshake (a STARTTLS injection attempt?); nothing was sent.");
                await UpgradeAsync();
                capabilities = await HelloAsync();
            }

            if (options.HasCredentials)
                await AuthenticateAsync(capabilities);

            await CommandAsync(SmtpStage.MailFrom, $"MAIL FROM:<{options.From}>", 250);
            foreach (var to in recipients)
            {
                _stage(SmtpStage.RecipientTo);
                await _channel.WriteLineAsync($"RCPT TO:<{to}>", ct);
                var reply = await _channel.ReadReplyAsync(ct);
                if (reply.Code is not (250 or 251)) throw SmtpFailures.Rejected(SmtpStage.RecipientTo, reply, to);
            }
            await CommandAsync(SmtpStage.Data, "DATA", 354);
            await _channel.WriteAsync(DotStuffing.Payload(message), ct);
            await ExpectAsync(SmtpStage.Data, 250);

            // Accepted: nothing after this may turn the send into a failure.
            try
            {
                await _channel.WriteLineAsync("QUIT", ct);
                await _channel.ReadReplyAsync(ct);
            }
            catch (Exception e) when (e is IOException or InvalidDataException or OperationCanceledException or SocketException)
            {
            }
            return SmtpStage.Data;
        }

        async Task UpgradeAsync()
        {
            _stage(SmtpStage.TlsHandshake);
            var ssl = new SslStream(_channel.Stream, leaveInnerStreamOpen: false);
            await ssl.AuthenticateAsClientAsync(new SslClientAuthenticationOptions
            {
                TargetHost = options.Host,
                RemoteCertificateValidationCallback = tls.Validate,
            }, ct);
            _channel = new SmtpChannel(ssl);
            _secure = true;
        }

        async Task<SmtpCapabilities> HelloAsync()
        {
            _stage(SmtpStage.Hello);
            var name = string.IsNullOrWhiteSpace(options.ClientName) ? Environment.MachineName : options.ClientName;
            await _channel.WriteLineAsync($"EHLO {name}", ct);
            var reply = await _channel.ReadReplyAsync(ct);
            if (reply.Code == 250) return SmtpCapabilities.Parse(reply);
            if (reply.Code is not (500 or 502)) throw SmtpFailures.Rejected(SmtpStage.Hello, reply);
            // A server from before ESMTP: HELO works, but offers nothing (no STARTTLS, no AUTH).
            await CommandAsync(SmtpStage.Hello, $"HELO {name}", 250);
            return SmtpCapabilities.None;
        }

        async Task AuthenticateAsync(SmtpCapabilities capabilities)
        {
            _stage(SmtpStage.Authenticate);
            if (!_secure && !options.AllowAuthWithoutTls) throw SmtpFailures.PlainTextAuth(options.Host);
            var user = options.UserName!;
            var password = options.Password ?? "";
            if (capabilities.AuthMechanisms.Contains("PLAIN"))
            {
                var response = Base64($"\0{user}\0{password}");
                await _channel.WriteLineAsync($"AUTH PLAIN {response}", ct);
                var reply = await _channel.ReadReplyAsync(ct);
                if (reply.Code == 334)
                {
                    await _channel.WriteLineAsync(response, ct);
                    reply = await _channel.ReadReplyAsync(ct);
                }
                if (reply.Code != 235) throw SmtpFailures.Rejected(SmtpStage.Authenticate, reply);
            }
            else if (capabilities.AuthMechanisms.Contains("LOGIN"))
            {
                await CommandAsync(SmtpStage.Authenticate, "AUTH LOGIN", 334);
                await CommandAsync(SmtpStage.Authenticate, Base64(user), 334);
                await CommandAsync(SmtpStage.Authenticate, Base64(password), 235);
            }
            else
            {
                throw SmtpFailures.NoAuth(options.Host, options.Security);
            }
        }

        async Task CommandAsync(SmtpStage stage, string command, int expected)
        {
            _stage(stage);
            await _channel.WriteLineAsync(command, ct);
            await ExpectAsync(stage, expected);
        }

        async Task ExpectAsync(SmtpStage stage, int expected)
        {
            var reply = await _channel.ReadReplyAsync(ct);
            if (reply.Code != expected) throw SmtpFailures.Rejected(stage, reply);
        }

        static string Base64(string text) => Convert.ToBase64String(Encoding.UTF8.GetBytes(text));
    }
}
