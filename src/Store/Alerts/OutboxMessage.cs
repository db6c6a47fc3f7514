using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>
/// A message to put in the outbox. <see cref="DedupeKey"/> is unique: inserting the same decision twice stores one row.
/// With <see cref="SilencedBy"/> it is recorded <see cref="OutboxStatus.Silenced"/> and never sent.
/// </summary>
public sealed record OutboxMessage(
    string DedupeKey,
    AlertNoticeKind Kind,
    long? InstanceId,
    string? InstanceName,
    AlertRule? Rule,
    IReadOnlyList<string> Recipients,
    AlertMailContent Content,
    long? SilencedBy = null);
