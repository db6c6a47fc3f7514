using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>One stored outbox row: the message, and how its delivery went.</summary>
public sealed record OutboxEntry
{
    public required long Id { get; init; }
    public required AlertNoticeKind Kind { get; init; }
    public long? InstanceId { get; init; }
    public string? InstanceName { get; init; }
    public AlertRule? Rule { get; init; }
    public required IReadOnlyList<string> Recipients { get; init; }
    public required string Subject { get; init; }
    public required string TextBody { get; init; }
    public required string HtmlBody { get; init; }
    public IReadOnlyList<MailAttachment> Attachments { get; init; } = [];
    public required string MessageId { get; init; }
    public required DateTimeOffset CreatedAt { get; init; }
    public required OutboxStatus Status { get; init; }
    public required int Attempts { get; init; }
    public DateTimeOffset? NextAttemptAt { get; init; }
    public DateTimeOffset? LastAttemptAt { get; init; }
    public string? LastError { get; init; }
    public DateTimeOffset? SentAt { get; init; }

    /// <summary>The silence that held this alert back (<see cref="OutboxStatus.Silenced"/>).</summary>
    public long? SilenceId { get; init; }
}
