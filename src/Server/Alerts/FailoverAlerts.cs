using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Shared.Alerts;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Alerts;

/// <summary>
/// After a failover the DBA's question is whether the new primary is still fast to grow and restore: IFI belongs to
/// each replica's (or each cluster node's) service account, so the instance now taking the writes may zero every
/// growth and restore where the old one did not. Each failover on the timeline that puts an instance in charge (an
/// availability-group replica that became PRIMARY, a failover cluster instance on another node) is told once to the
/// instance's routes: as <see cref="AlertNoticeKind.FailoverWithoutIfi"/> when it lacks IFI that policy requires,
/// else as the plain notice <see cref="AlertNoticeKind.Failover"/>. Pure: the store reads the failovers and the silences.
/// </summary>
public static class FailoverAlerts
{
    public static (long DecidedUpTo, IReadOnlyList<OutboxMessage> Messages) Plan(FleetAssessment fleet,
        IReadOnlyList<(long Id, TimelineChange Change)> failovers, IReadOnlyList<AlertSilence> silences, AlertOptions options)
    {
        var instances = fleet.Instances.ToDictionary(i => i.Registration.Id);
        var groups = new Lazy<IReadOnlyList<AvailabilityGroupSummary>>(() => AvailabilityGroupSummary.Of(fleet.Instances));
        var messages = new List<OutboxMessage>();
        long decidedUpTo = 0;
        foreach (var (id, change) in failovers)
        {
            // A retired instance's failover is no one's news.
            if (instances.TryGetValue(change.InstanceId, out var instance))
            {
                // The assessment has not seen the poll that saw the failover yet, so its IFI and status may be another
                // node's: this failover, and the ones after it, wait for the next evaluation.
                if (instance.State.LastPollAt is not { } polled || polled < change.SeenAt) break;
                if (PutsInCharge(change) && Message(id, change, instance, GroupOf(change, instance, groups.Value), silences,
                        options, fleet.ComputedAt) is { } message)
                    messages.Add(message);
            }
            decidedUpTo = id;
        }
        return (decidedUpTo, messages);
    }

    /// <summary>
    /// The new primary's own change tells the failover (the old primary's PRIMARY → SECONDARY is the same event, seen
    /// from the side that no longer takes writes); a cluster instance's move is always to the node now running it.
    /// </summary>
    static bool PutsInCharge(TimelineChange change) => change.Kind switch
    {
        TimelineChangeKind.ClusterOwnerMove => true,
        TimelineChangeKind.AvailabilityFailover => string.Equals(TimelineText.GroupAndRole(change.After).Role,
            AvailabilityRoles.Primary, StringComparison.OrdinalIgnoreCase),
        _ => false,
    };

    /// <summary>The group the failover moved, across the fleet's replicas as the assessment sees them; null for a cluster move.</summary>
    static AvailabilityGroupSummary? GroupOf(TimelineChange change, InstanceAssessment instance, IReadOnlyList<AvailabilityGroupSummary> groups) =>
        change.Kind != TimelineChangeKind.AvailabilityFailover ? null
            : groups.FirstOrDefault(g => string.Equals(g.Name, TimelineText.GroupAndRole(change.After).Group, StringComparison.OrdinalIgnoreCase)
                                         && g.Replicas.Any(r => r.Instance?.Id == instance.Registration.Id));

    static OutboxMessage? Message(long changeId, TimelineChange change, InstanceAssessment instance, AvailabilityGroupSummary? group,
        IReadOnlyList<AlertSilence> silences, AlertOptions options, DateTimeOffset now)
    {
        // NonCompliant with IFI off: policy requires IFI here (where it forbids IFI, off is compliant).
        var lacksIfi = instance.Compliance.Status == ComplianceStatus.NonCompliant && instance.Compliance.Observed == IfiState.Disabled;
        if (!(lacksIfi ? options.Rules.Failover : options.Rules.FailoverNotice)) return null;
        var kind = lacksIfi ? AlertNoticeKind.FailoverWithoutIfi : AlertNoticeKind.Failover;
        return new OutboxMessage($"Failover:{changeId}", kind, instance.Registration.Id, instance.Registration.Name, null,
            AlertRouter.RecipientsFor(instance.Registration, options), FailoverMailComposer.Compose(change, instance, group, lacksIfi, options),
            AlertEvaluator.SilenceFor(instance, silences, now)?.Id);
    }
}
