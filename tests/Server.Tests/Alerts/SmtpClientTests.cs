using IfiDashboard.Server.Alerts.Smtp;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>Our SMTP client against aiosmtpd in each security mode, and the advice each failure gives.</summary>
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

    static OutgoingMail Mail(string subject = "[IFI] test") =>
        new(["dba@example.test"], subject, "Line one\n.starts with a dot\n", "<p>Hello <b>DBA</b></p>", Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task Starttls_with_login_delivers_a_multipart_message_with_an_encoded_subject()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.StartTls, User, RelayPassword);
        var options = Options(sink, SmtpSecurity.StartTls);
        options.UserName = User;
        options.Password = RelayPassword;
        const string subject = "[IFI] Größe zählt: sql-prod-ü ✓ a subject long enough to need more than one encoded word, really";

        await Client.SendAsync(options, Mail(subject), CancellationToken.None);

        var mail = Assert.Single(await sink.WaitForAsync(1));
        Assert.True(mail.Tls);
        Assert.True(mail.Authenticated);
        Assert.Equal(subject, mail.Subject);
        Assert.Equal("Line one\n.starts with a dot\n", mail.Text!.ReplaceLineEndings("\n"));
        Assert.Equal("<p>Hello <b>DBA</b></p>", mail.Html!.TrimEnd());
        Assert.Empty(mail.Defects);
    }

    [Fact]
    public async Task Ssl_on_connect_delivers()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.Ssl, User, RelayPassword);
        var options = Options(sink, SmtpSecurity.SslOnConnect);
        options.UserName = User;
        options.Password = RelayPassword;

        await Client.SendAsync(options, Mail(), CancellationToken.None);

        var mail = Assert.Single(await sink.WaitForAsync(1));
        Assert.True(mail.Authenticated);
    }

    [Fact]
    public async Task Wrong_password_fails_at_auth_with_what_to_check()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.StartTls, User, RelayPassword);
        var options = Options(sink, SmtpSecurity.StartTls);
        options.UserName = User;
        options.Password = "not-the-password";

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => Client.SendAsync(options, Mail(), CancellationToken.None));

        Assert.Equal(SmtpStage.Authenticate, e.Stage);
        Assert.Equal(535, e.ReplyCode);
        Assert.Contains("Alerts:Smtp:UserName and Alerts:Smtp:Password", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("not-the-password", e.Message, StringComparison.Ordinal);
        Assert.Empty(sink.Messages());
    }

    [Fact]
    public async Task An_untrusted_certificate_is_refused_with_how_to_trust_it()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.StartTls);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() =>
            Client.SendAsync(Options(sink, SmtpSecurity.StartTls, pin: false), Mail(), CancellationToken.None));

        Assert.Equal(SmtpStage.TlsHandshake, e.Stage);
        Assert.Contains("not trusted", e.Message, StringComparison.Ordinal);
        Assert.Contains("Alerts:Smtp:ServerCertificatePath", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Ssl_on_connect_against_a_plain_port_says_to_use_starttls_or_none()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() =>
            Client.SendAsync(Options(sink, SmtpSecurity.SslOnConnect), Mail(), CancellationToken.None));

        Assert.Equal(SmtpStage.TlsHandshake, e.Stage);
        Assert.Contains("set Alerts:Smtp:Security to StartTls or None", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Starttls_required_but_not_offered_sends_nothing_in_clear_text()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() =>
            Client.SendAsync(Options(sink, SmtpSecurity.StartTls), Mail(), CancellationToken.None));

        Assert.Equal(SmtpStage.StartTls, e.Stage);
        Assert.Contains("does not offer STARTTLS", e.Message, StringComparison.Ordinal);
        Assert.Empty(sink.Messages());
    }

    [Fact]
    public async Task The_password_is_not_sent_over_a_connection_without_tls()
    {
        await using var sink = await SmtpSink.StartAsync(SinkMode.None, User, RelayPassword);
        var options = Options(sink, SmtpSecurity.None);
        options.UserName = User;
        options.Password = RelayPassword;

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() => Client.SendAsync(options, Mail(), CancellationToken.None));

        Assert.Equal(SmtpStage.Authenticate, e.Stage);
        Assert.Contains("AllowAuthWithoutTls", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Nothing_listening_names_the_host_and_port_to_check()
    {
        await using var sink = SmtpSink.Create(SinkMode.None);

        var e = await Assert.ThrowsAsync<SmtpDeliveryException>(() =>
            Client.SendAsync(Options(sink, SmtpSecurity.None), Mail(), CancellationToken.None));

        Assert.Equal(SmtpStage.Connect, e.Stage);
        Assert.Contains($"localhost:{sink.Port}", e.Message, StringComparison.Ordinal);
        Assert.True(e.IsTransient);
    }
}
