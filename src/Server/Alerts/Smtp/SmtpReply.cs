namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>One reply from the relay: a three-digit code and its text lines (RFC 5321 §4.2).</summary>
public sealed record SmtpReply(int Code, IReadOnlyList<string> Lines)
{
    public bool IsPositive => Code is >= 200 and < 400;
    public bool IsTransientFailure => Code is >= 400 and < 500;

    /// <summary>The reply as the relay said it, on one line, for error messages.</summary>
    public string Text => $"{Code} {string.Join(" ", Lines)}".Trim();
}
