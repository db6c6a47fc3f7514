namespace IfiDashboard.Store.Alerts.Mail;

/// <summary>A composed message: the subject and the same content as plain text and as HTML, and any files it carries.</summary>
public sealed record AlertMailContent(string Subject, string Text, string Html, IReadOnlyList<MailAttachment>? Attachments = null);

/// <summary>A file sent with a message (the evidence report's CSV and JSON), stored with its outbox row.</summary>
public sealed record MailAttachment(string FileName, string ContentType, byte[] Content);
