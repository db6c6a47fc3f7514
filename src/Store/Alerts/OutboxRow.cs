using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>An outbox row as SQLite returns it (times as ISO text, enums as names).</summary>
internal sealed class OutboxRow
{
    public const string Columns = """
        id AS Id, kind AS Kind, instance_id AS InstanceId, instance_name AS InstanceName, rule AS Rule,
        recipients AS Recipients, subject AS Subject, text_body AS TextBody, html_body AS HtmlBody, attachments AS Attachments, message_id AS MessageId,
        created_at AS CreatedAt, status AS Status, attempts AS Attempts, next_attempt_at AS NextAttemptAt,
        last_attempt_at AS LastAttemptAt, last_error AS LastError, sent_at AS SentAt, silence_id AS SilenceId
        """;

    public long Id { get; init; }
    public string Kind { get; init; } = "";
    public long? InstanceId { get; init; }
    public string? InstanceName { get; init; }
    public string? Rule { get; init; }
    public JsonColumn<IReadOnlyList<string>> Recipients { get; init; } = new([]);
    public string Subject { get; init; } = "";
    public string TextBody { get; init; } = "";
    public string HtmlBody { get; init; } = "";
    public JsonColumn<IReadOnlyList<MailAttachment>>? Attachments { get; init; }
    public string MessageId { get; init; } = "";
    public DateTimeOffset CreatedAt { get; init; }
    public string Status { get; init; } = "";
    public long Attempts { get; init; }
    public DateTimeOffset? NextAttemptAt { get; init; }
    public DateTimeOffset? LastAttemptAt { get; init; }
    public string? LastError { get; init; }
    public DateTimeOffset? SentAt { get; init; }
    public long? SilenceId { get; init; }

    public OutboxEntry ToEntry() => new()
    {
        Id = Id,
        Kind = Enum.Parse<AlertNoticeKind>(Kind),
        InstanceId = InstanceId,
        InstanceName = InstanceName,
        Rule = Rule is null ? null : Enum.Parse<AlertRule>(Rule),
        Recipients = Recipients.Value,
        Subject = Subject,
        TextBody = TextBody,
        HtmlBody = HtmlBody,
        Attachments = Attachments?.Value ?? [],
        MessageId = MessageId,
        CreatedAt = CreatedAt,
        Status = Enum.Parse<OutboxStatus>(Status),
        Attempts = (int)Attempts,
        NextAttemptAt = NextAttemptAt,
        LastAttemptAt = LastAttemptAt,
        LastError = LastError,
        SentAt = SentAt,
        SilenceId = SilenceId,
    };
}
