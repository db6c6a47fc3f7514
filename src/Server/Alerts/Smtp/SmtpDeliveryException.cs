namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// A send that failed, with a message that says what to change (it is shown in the alert history and the test-email
/// result). <see cref="IsTransient"/> is false when retrying cannot help until someone changes something.
/// </summary>
public sealed class SmtpDeliveryException(SmtpStage stage, string message, int? replyCode = null, bool isTransient = true,
    Exception? inner = null) : Exception(message, inner)
{
    public SmtpStage Stage { get; } = stage;

    /// <summary>The relay's reply code when it answered with an error.</summary>
    public int? ReplyCode { get; } = replyCode;

    public bool IsTransient { get; } = isTransient;
}

/// <summary>Where in the conversation with the relay a send failed: most fixes depend on it.</summary>
public enum SmtpStage
{
    Configuration,
    Connect,
    TlsHandshake,

    /// <summary>From the relay's greeting to its answer to EHLO (and STARTTLS).</summary>
    Greeting,
    StartTls,
    Authenticate,
    MailFrom,
    RecipientTo,

    /// <summary>The message itself, after the recipients were accepted.</summary>
    Data,
}
