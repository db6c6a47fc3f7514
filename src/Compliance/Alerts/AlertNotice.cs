using System.Globalization;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Alerts;

namespace IfiDashboard.Compliance.Alerts;

/// <summary>
/// A message the evaluation decided to send, for one instance and one episode; held back (recorded, not sent) when
/// <see cref="SilencedBy"/> covers the instance.
/// </summary>
public sealed record AlertNotice(AlertNoticeKind Kind, AlertRule Rule, InstanceAssessment Instance, AlertState Episode,
    AlertSilence? SilencedBy = null)
{
    /// <summary>
    /// Unique per message the rules can decide: the same decision made twice (two evaluations of one assessment,
    /// two servers on one store) inserts one outbox row.
    /// </summary>
    public string DedupeKey => string.Create(CultureInfo.InvariantCulture,
        $"{Kind}:{Instance.Registration.Id}:{Rule}:{Episode.OpenedAt.UtcTicks}:{(Kind == AlertNoticeKind.Resolved ? 0 : Episode.NotifyCount)}");
}
