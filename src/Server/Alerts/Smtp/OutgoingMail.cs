namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// One message as the outbox holds it. <paramref name="MessageId"/> is stable for the row, so a message sent twice
/// (the at-least-once edge) carries the same Message-ID and mail clients can fold the copies.
/// </summary>
public sealed record OutgoingMail(IReadOnlyList<string> To, string Subject, string TextBody, string HtmlBody, string MessageId);
