using System.Net.Sockets;
using MailKit.Net.Smtp;
using MailKit.Security;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using MimeKit;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// One message as the outbox holds it. <paramref name="MessageId"/> is stable for the row, so a message sent twice
/// (the at-least-once edge) carries the same Message-ID and mail clients can fold the copies.
/// </summary>
public sealed record OutgoingMail(IReadOnlyList<string> To, string Subject, string TextBody, string HtmlBody, string MessageId,
    IReadOnlyList<MailAttachment>? Attachments = null);

/// <summary>
/// Sends alert mail with MailKit and MimeKit (docs/decisions/0004-smtp-client.md). Every failure becomes a
/// <see cref="SmtpDeliveryException"/> that says what to change (<see cref="SmtpFailures"/>).
/// </summary>
public sealed class SmtpMailClient(TimeProvider time)
{
    /// <summary>A batch connects on its first message; disposing it says QUIT.</summary>
    public SmtpBatch StartBatch(SmtpOptions options) => new(options, time);
}

/// <summary>
/// One connection to the relay for a few messages: connect, TLS, login once, then each message, QUIT on dispose.
/// A failed connect or login fails every message of the batch without trying again (a relay that is down is not
/// asked twenty times in a row); a message the relay refuses does not stop the others.
/// </summary>
public sealed class SmtpBatch : IAsyncDisposable
{
    readonly SmtpOptions _options;
    readonly TimeProvider _time;
    readonly SmtpClient _client = new();
    SmtpTlsCheck? _tls;
    SmtpDeliveryException? _openFailure;

    internal SmtpBatch(SmtpOptions options, TimeProvider time)
    {
        _options = options;
        _time = time;
        _client.LocalDomain = string.IsNullOrWhiteSpace(options.ClientName) ? Environment.MachineName : options.ClientName;
        // The certificate policy of SmtpTlsCheck alone; revocation is not checked (as SslStream's default, which this
        // client always had): relays on internal networks often cannot reach their CA's CRL or OCSP responder.
        _client.CheckCertificateRevocation = false;
    }

    /// <summary>Returns once the relay has accepted the message; throws <see cref="SmtpDeliveryException"/> otherwise.</summary>
    public async Task SendAsync(OutgoingMail mail, CancellationToken ct)
    {
        var (sender, recipients) = Envelope(mail);
        if (_openFailure is not null) throw _openFailure;
        if (!_client.IsConnected) await OpenAsync(ct);
        var message = Compose(mail, sender, recipients);
        await StepAsync(SmtpStage.Data, token => _client.SendAsync(message, sender, recipients, token), ct);
    }

    async Task OpenAsync(CancellationToken ct)
    {
        try
        {
            _tls ??= SmtpTlsCheck.For(_options);
            _client.ServerCertificateValidationCallback = _tls.Validate;
            var socket = await StepAsync(SmtpStage.Connect, ConnectSocketAsync, ct);
            try
            {
                await StepAsync(SmtpStage.Greeting, token =>
                    _client.ConnectAsync(socket, _options.Host, _options.EffectivePort, SocketOptions(_options.Security), token), ct);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
            if (!_options.HasCredentials) return;
            if (!_client.IsSecure && !_options.AllowAuthWithoutTls) throw SmtpFailures.PlainTextAuth(_options.Host);
            await StepAsync(SmtpStage.Authenticate, token => _client.AuthenticateAsync(_options.UserName!, _options.Password!, token), ct);
        }
        catch (SmtpDeliveryException e)
        {
            _openFailure = e;
            throw;
        }
    }

    // Our own TCP connect, so a timeout here (nothing answers) is told apart from one after it (no SMTP greeting).
    async Task<Socket> ConnectSocketAsync(CancellationToken ct)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        try
        {
            await socket.ConnectAsync(_options.Host, _options.EffectivePort, ct);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    Task StepAsync(SmtpStage stage, Func<CancellationToken, Task> step, CancellationToken ct) =>
        StepAsync(stage, async token =>
        {
            await step(token);
            return true;
        }, ct);

    /// <summary>Runs one step under its own deadline and turns what went wrong into advice.</summary>
    async Task<T> StepAsync<T>(SmtpStage stage, Func<CancellationToken, Task<T>> step, CancellationToken ct)
    {
        // Real time, not the injected clock: a network timeout measures the relay, and a test's clock that jumps
        // hours ahead must not cut a conversation in flight.
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(TimeSpan.FromSeconds(_options.TimeoutSeconds));
        try
        {
            return await step(deadline.Token);
        }
        catch (Exception e) when (!ct.IsCancellationRequested)
        {
            var failure = SmtpFailures.Explain(e, stage, _options, _tls, timedOut: deadline.IsCancellationRequested);
            if (failure is null) throw;
            throw failure;
        }
    }

    (MailboxAddress Sender, List<MailboxAddress> Recipients) Envelope(OutgoingMail mail)
    {
        static SmtpDeliveryException Invalid(string message) => new(SmtpStage.Configuration, message, isTransient: false);
        if (string.IsNullOrWhiteSpace(_options.Host)) throw Invalid("Alerts:Smtp:Host is not set.");
        if (PlainAddress(_options.From) is not { } sender)
            throw Invalid($"Alerts:Smtp:From '{_options.From}' is not a plain e-mail address (name@domain).");
        if (mail.To.Count == 0) throw Invalid("The message has no recipients: set Alerts:DefaultTo or a route's To.");
        var recipients = new List<MailboxAddress>(mail.To.Count);
        foreach (var to in mail.To)
            recipients.Add(PlainAddress(to) ?? throw Invalid($"'{to}' is not a plain e-mail address (name@domain)."));
        if (_options.HasCredentials && string.IsNullOrEmpty(_options.Password))
            throw Invalid("Alerts:Smtp:UserName is set but Alerts:Smtp:Password is empty (set it in the environment: Alerts__Smtp__Password).");
        return (sender, recipients);
    }

    // ASCII only (no SMTPUTF8), one address, no display name: what is configured is exactly what goes on the wire.
    static MailboxAddress? PlainAddress(string address) =>
        address.All(c => c is > ' ' and <= '~') && MailboxAddress.TryParse(address, out var parsed) &&
        parsed.Address == address && string.IsNullOrEmpty(parsed.Name)
            ? parsed
            : null;

    /// <summary>multipart/alternative, plain text first and HTML last (the last part is the one clients prefer).</summary>
    MimeMessage Compose(OutgoingMail mail, MailboxAddress sender, List<MailboxAddress> recipients)
    {
        var message = new MimeMessage
        {
            // MimeKit keeps a line break from starting a header, but would glue the words on either side together.
            Subject = mail.Subject.ReplaceLineEndings(" "),
            Date = _time.GetUtcNow(),
            MessageId = $"{mail.MessageId}@{sender.Domain}",
            Body = Body(mail),
        };
        message.From.Add(sender);
        message.To.AddRange(recipients);
        // Tells auto-responders (out-of-office) not to answer an alert.
        message.Headers.Add("Auto-Submitted", "auto-generated");
        return message;
    }

    /// <summary>With attachments, multipart/mixed around the alternative parts, each file after them.</summary>
    static MimeEntity Body(OutgoingMail mail)
    {
        var body = new BodyBuilder { TextBody = mail.TextBody, HtmlBody = mail.HtmlBody };
        foreach (var file in mail.Attachments ?? [])
            body.Attachments.Add(file.FileName, file.Content, ContentType.Parse(file.ContentType));
        return body.ToMessageBody();
    }

    static SecureSocketOptions SocketOptions(SmtpSecurity security) => security switch
    {
        // StartTls, not StartTlsWhenAvailable: a relay that does not offer it is an error, never clear text.
        SmtpSecurity.StartTls => SecureSocketOptions.StartTls,
        SmtpSecurity.SslOnConnect => SecureSocketOptions.SslOnConnect,
        _ => SecureSocketOptions.None,
    };

    public async ValueTask DisposeAsync()
    {
        if (_client.IsConnected)
        {
            // Accepted is accepted: MailKit ignores a QUIT that fails, and nothing here may fail a sent message.
            using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(_options.TimeoutSeconds));
            await _client.DisconnectAsync(quit: true, deadline.Token);
        }
        _client.Dispose();
    }
}
