namespace IfiDashboard.Server.Alerts.Mail;

/// <summary>A composed message: the subject and the same content as plain text and as HTML.</summary>
public sealed record AlertMailContent(string Subject, string Text, string Html);
