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
