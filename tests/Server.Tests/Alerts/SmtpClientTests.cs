using System.Net;
using System.Net.Sockets;
using IfiDashboard.Server.Alerts.Smtp;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>Alert mail through MailKit against aiosmtpd in each security mode, and the advice each failure gives.</summary>
public sealed class SmtpClientTests
{
    const string User = "alerts-relay";
    const string RelayPassword = "Relay-Pw-7f3c!";

    static readonly SmtpMailClient Client = new(TimeProvider.System);

    static SmtpOptions Options(SmtpSink sink, SmtpSecurity security, bool pin = true) => new()
    {
        Host = "localhost",
        Port = sink.Port,
        Security = security,
        From = "ifi@example.test",
        TimeoutSeconds = 10,
        ServerCertificatePath = pin ? sink.Certificate?.CertificatePath : null,
    };

    /// <summary>For a listener of the test's own that is not an SMTP server, or not a well-behaved one.</summary>
    static SmtpOptions Options(TcpListener listener, SmtpSecurity security, int timeoutSeconds) => new()
    {
        Host = "127.0.0.1",
        Port = ((IPEndPoint)listener.LocalEndpoint).Port,
        Security = security,
        From = "ifi@example.test",
        TimeoutSeconds = timeoutSeconds,
    };

    static SmtpOptions WithLogin(SmtpOptions options, string password)
    {
        options.UserName = User;
        options.Password = password;
        return options;
    }

    static OutgoingMail Mail(string subject = "[IFI] test", string to = "dba@example.test") =>
        new([to], subject, "Line one\n.starts with a dot\n", "<p>Hello <b>DBA</b></p>", Guid.NewGuid().ToString("N"));

    static async Task SendAsync(SmtpOptions options, OutgoingMail mail)
    {
        await using var batch = Client.StartBatch(options);
        await batch.SendAsync(mail, CancellationToken.None);
    }

    [Fact]
    public async Task Starttls_with_login_delivers_a_multipart_message_with_an_encoded_subject_and_a_leading_dot_intact()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.StartTls, User, RelayPassword);
        const string subject = "[IFI] Größe zählt: sql-prod-ü ✓ a subject long enough to need more than one encoded word, really";
        var mail = Mail(subject);

        await SendAsync(WithLogin(Options(sink, SmtpSecurity.StartTls), RelayPassword), mail);

        var received = Assert.Single(await sink.WaitForAsync(1));
        Assert.True(received.Tls);
        Assert.True(received.Authenticated);
        Assert.Equal(subject, received.Subject);
        Assert.Equal("multipart/alternative", received.ContentType);
        Assert.Equal("Line one\n.starts with a dot\n", received.Text!.ReplaceLineEndings("\n"));
        Assert.Equal("<p>Hello <b>DBA</b></p>", received.Html!.TrimEnd());
        Assert.Equal($"<{mail.MessageId}@example.test>", received.MessageId);
        Assert.Contains("Auto-Submitted", received.Headers);
        Assert.Empty(received.Defects);
    }

    [Fact]
    public async Task Ssl_on_connect_delivers()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.Ssl, User, RelayPassword);

        await SendAsync(WithLogin(Options(sink, SmtpSecurity.SslOnConnect), RelayPassword), Mail());

        var mail = Assert.Single(await sink.WaitForAsync(1));
        Assert.True(mail.Authenticated);
    }

    [Fact]
    public async Task A_batch_sends_every_message_over_one_connection_and_a_refused_recipient_does_not_stop_the_others()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None);
        SmtpDeliveryException? refused = null;

        await using (var batch = Client.StartBatch(Options(sink, SmtpSecurity.None)))
        {
            await batch.SendAsync(Mail("[IFI] first"), CancellationToken.None);
            refused = await Assert.ThrowsAsync<SmtpDeliveryException>(() =>
                batch.SendAsync(Mail("[IFI] refused", to: "refused@example.test"), CancellationToken.None));
            await batch.SendAsync(Mail("[IFI] third"), CancellationToken.None);
        }

        var messages = await sink.WaitForAsync(2);
        Assert.Equal(["[IFI] first", "[IFI] third"], messages.Select(m => m.Subject).Order());
        Assert.Single(messages.Select(m => m.Connection).Distinct());
        Assert.Equal(SmtpStage.RecipientTo, refused.Stage);
        Assert.Equal(550, refused.ReplyCode);
        Assert.False(refused.IsTransient);
        Assert.Contains("refuses the recipient refused@example.test", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Alerts:Routes / Alerts:DefaultTo", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_refused_sender_says_which_setting_to_change()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None);
        var options = Options(sink, SmtpSecurity.None);
        options.From = "refused-sender@example.test";

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(options, Mail()));

        Assert.Equal(SmtpStage.MailFrom, e.Stage);
        Assert.Equal(550, e.ReplyCode);
        Assert.Contains("Alerts:Smtp:From", e.Message, StringComparison.Ordinal);
        Assert.Empty(sink.Messages());
    }

    [Fact]
    public async Task A_line_break_in_a_subject_cannot_start_a_new_header_or_add_a_recipient()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None);

        await SendAsync(Options(sink, SmtpSecurity.None), Mail("[IFI] sql01\r\nBcc: victim@example.test"));

        var mail = Assert.Single(await sink.WaitForAsync(1));
        Assert.Equal(["dba@example.test"], mail.RcptTos);
        Assert.DoesNotContain(mail.Headers, h => h.Equals("Bcc", StringComparison.OrdinalIgnoreCase));
        Assert.Equal("[IFI] sql01 Bcc: victim@example.test", mail.Subject);
        Assert.Empty(mail.Defects);
    }

    [Fact]
    public async Task Wrong_password_fails_at_auth_with_what_to_check()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.StartTls, User, RelayPassword);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() =>
            SendAsync(WithLogin(Options(sink, SmtpSecurity.StartTls), "not-the-password"), Mail()));

        Assert.Equal(SmtpStage.Authenticate, e.Stage);
        Assert.Equal(535, e.ReplyCode);
        Assert.Contains("Alerts:Smtp:UserName and Alerts:Smtp:Password", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("not-the-password", e.Message, StringComparison.Ordinal);
        Assert.Empty(sink.Messages());
    }

    [Fact]
    public async Task A_login_the_relay_does_not_offer_says_to_remove_the_user_name()
    {
        // aiosmtpd offers AUTH only over TLS; this relay has none.
        await using var sink = await SmtpSink.StartAsync(SinkMode.None);
        var options = WithLogin(Options(sink, SmtpSecurity.None), RelayPassword);
        options.AllowAuthWithoutTls = true;

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(options, Mail()));

        Assert.Equal(SmtpStage.Authenticate, e.Stage);
        Assert.Contains("offers no AUTH", e.Message, StringComparison.Ordinal);
        Assert.Contains("remove Alerts:Smtp:UserName", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(RelayPassword, e.Message, StringComparison.Ordinal);
        Assert.Empty(sink.Messages());
    }

    [Fact]
    public async Task An_untrusted_certificate_is_refused_with_how_to_trust_it()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.StartTls);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(Options(sink, SmtpSecurity.StartTls, pin: false), Mail()));

        Assert.Equal(SmtpStage.TlsHandshake, e.Stage);
        Assert.Contains("not trusted", e.Message, StringComparison.Ordinal);
        Assert.Contains("Alerts:Smtp:ServerCertificatePath", e.Message, StringComparison.Ordinal);
        Assert.Empty(sink.Messages());
    }

    [Fact]
    public async Task A_certificate_other_than_the_pinned_one_is_refused()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.Ssl);
        var other = Directory.CreateTempSubdirectory("ifi-other-cert-");
        try
        {
            var options = Options(sink, SmtpSecurity.SslOnConnect);
            options.ServerCertificatePath = TestCertificate.Create(other.FullName).CertificatePath;

            var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(options, Mail()));

            Assert.Equal(SmtpStage.TlsHandshake, e.Stage);
            Assert.Contains("not the one in Alerts:Smtp:ServerCertificatePath", e.Message, StringComparison.Ordinal);
            Assert.False(e.IsTransient);
            Assert.Empty(sink.Messages());
        }
        finally
        {
            other.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Ssl_on_connect_against_a_plain_port_says_to_use_starttls_or_none()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(Options(sink, SmtpSecurity.SslOnConnect), Mail()));

        Assert.Equal(SmtpStage.TlsHandshake, e.Stage);
        Assert.Contains("set Alerts:Smtp:Security to StartTls or None", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Starttls_required_but_not_offered_sends_nothing_in_clear_text()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(Options(sink, SmtpSecurity.StartTls), Mail()));

        Assert.Equal(SmtpStage.StartTls, e.Stage);
        Assert.Contains("does not offer STARTTLS", e.Message, StringComparison.Ordinal);
        Assert.Empty(sink.Messages());
    }

    [Fact]
    public async Task The_password_is_not_sent_over_a_connection_without_tls()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None, User, RelayPassword);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() =>
            SendAsync(WithLogin(Options(sink, SmtpSecurity.None), RelayPassword), Mail()));

        Assert.Equal(SmtpStage.Authenticate, e.Stage);
        Assert.Contains("AllowAuthWithoutTls", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Nothing_listening_names_the_host_and_port_to_check()
    {
        await using var sink = SmtpSink.Create(SinkMode.None);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(Options(sink, SmtpSecurity.None), Mail()));

        Assert.Equal(SmtpStage.Connect, e.Stage);
        Assert.Contains($"localhost:{sink.Port}", e.Message, StringComparison.Ordinal);
        Assert.Contains("connection refused", e.Message, StringComparison.Ordinal);
        Assert.True(e.IsTransient);
    }

    [Fact]
    public async Task A_relay_down_fails_the_whole_batch_at_once_with_the_same_advice()
    {
        await using var sink = SmtpSink.Create(SinkMode.None);
        await using var batch = Client.StartBatch(Options(sink, SmtpSecurity.None));

        var first = await Assert.ThrowsAsync<SmtpDeliveryException>(() => batch.SendAsync(Mail(), CancellationToken.None));
        await sink.StartAsync();
        var second = await Assert.ThrowsAsync<SmtpDeliveryException>(() => batch.SendAsync(Mail(), CancellationToken.None));

        // The relay is up by the second message, but the batch does not knock again: the next batch will.
        Assert.Equal(SmtpStage.Connect, second.Stage);
        Assert.Equal(first.Message, second.Message);
        Assert.Empty(sink.Messages());
    }

    [Fact]
    public async Task A_port_that_accepts_but_never_greets_times_out_with_advice_to_use_ssl_on_connect()
    {
        using var silent = new TcpListener(IPAddress.Loopback, 0);
        silent.Start();
        var options = Options(silent, SmtpSecurity.StartTls, timeoutSeconds: 1);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(options, Mail()));

        Assert.Equal(SmtpStage.Greeting, e.Stage);
        Assert.Contains("did not greet this server within 1 s", e.Message, StringComparison.Ordinal);
        Assert.Contains("set Alerts:Smtp:Security to SslOnConnect", e.Message, StringComparison.Ordinal);
        Assert.True(e.IsTransient);
    }

    [Fact]
    public async Task A_relay_that_hangs_up_after_its_greeting_is_reported_as_closing_the_connection()
    {
        using var rude = new TcpListener(IPAddress.Loopback, 0);
        rude.Start();
        var options = Options(rude, SmtpSecurity.None, timeoutSeconds: 10);
        var relay = Task.Run(async () =>
        {
            using var connection = await rude.AcceptTcpClientAsync();
            var stream = connection.GetStream();
            await stream.WriteAsync("220 rude.test ESMTP\r\n"u8.ToArray());
            // Reads EHLO, then hangs up without an answer.
            await new StreamReader(stream).ReadLineAsync();
        });

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => SendAsync(options, Mail()));
        await relay;

        Assert.Equal(SmtpStage.Greeting, e.Stage);
        Assert.Contains("closed the connection", e.Message, StringComparison.Ordinal);
        Assert.True(e.IsTransient);
    }
}
