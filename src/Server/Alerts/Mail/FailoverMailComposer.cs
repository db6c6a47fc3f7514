using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Server.Alerts.Mail;

/// <summary>
/// The message about a failover, for the instance now in charge: which group (or node) moved, whether this instance
/// has IFI as policy wants it, and, when it lacks IFI that policy requires, what that costs and what to do.
/// </summary>
public static class FailoverMailComposer
{
    /// <param name="group">The group an availability-group failover moved, with every replica's IFI; null for a cluster move.</param>
    public static AlertMailContent Compose(TimelineChange change, InstanceAssessment instance, AvailabilityGroupSummary? group,
        bool lacksIfi, AlertOptions options)
    {
        var facts = new List<(string Label, string Value)> { ("Failover", TimelineText.Describe(change)) };
        if (group is not null) facts.Add(("Group", group.Sentence));
        facts.AddRange(AlertMailComposer.InstanceFacts(instance));
        if (lacksIfi)
            facts.Add(("What it means", "This instance now takes the writes, and it zeroes data files: every growth and every restore " +
                "on it writes zeros over the new space first, where the instance in charge before may not have. Grant the right " +
                "to its service account and restart the service in the order below."));
        facts.Add(AlertMailComposer.TimeLostFact(instance));
        return AlertMailComposer.Render(instance, Headline(change, instance, lacksIfi), facts, withSteps: lacksIfi, options);
    }

    /// <summary>
    /// "Failover to a replica without IFI: AG payments now runs on SQL02 (Production)", or for the record "Failover: AG
    /// payments now runs on SQL02 (Production); IFI as policy wants it".
    /// </summary>
    internal static string Headline(TimelineChange change, InstanceAssessment instance, bool lacksIfi)
    {
        var where = $"{instance.Registration.Name} ({instance.Registration.Environment})";
        var (moved, onto) = change.Kind == TimelineChangeKind.ClusterOwnerMove
            ? ($"{where} now runs on node {change.After}", "node")
            : ($"AG {TimelineText.GroupAndRole(change.After).Group} now runs on {where}", "replica");
        return lacksIfi ? $"Failover to a {onto} without IFI: {moved}" : $"Failover: {moved}; {State(instance.Compliance)}";
    }

    static string State(InstanceCompliance compliance) => compliance.Status switch
    {
        ComplianceStatus.Compliant => "IFI as policy wants it",
        ComplianceStatus.Waived => "IFI off, accepted by a waiver",
        ComplianceStatus.NotApplicable => "outside the policy's scope",
        ComplianceStatus.NonCompliant => "IFI on against policy",
        _ => "IFI state unknown",
    };
}
