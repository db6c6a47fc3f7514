namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>Where in the conversation with the relay a send failed: most fixes depend on it.</summary>
public enum SmtpStage
{
    Configuration,
    Connect,
    TlsHandshake,
    Greeting,
    Hello,
    StartTls,
    Authenticate,
    MailFrom,
    RecipientTo,
    Data,
}
