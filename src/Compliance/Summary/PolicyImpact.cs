using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Compliance.Summary;

/// <summary>One instance whose status a proposed policy would change.</summary>
public sealed record StatusChange(long InstanceId, string InstanceName, ComplianceStatus Before, ComplianceStatus After, string Explanation);

/// <summary>
/// What a proposed policy (rules or a waiver) would do to the fleet, before it is saved: the counts under the policy in
/// force and under the proposal, and every instance whose status would change. Both sides are judged by
/// <see cref="ComplianceEvaluator"/> on the same facts at the same moment, so the difference is the change alone.
/// </summary>
public sealed record PolicyImpact(StatusCounts Before, StatusCounts After, IReadOnlyList<StatusChange> Changes, DateTimeOffset JudgedAt)
{
    public static PolicyImpact Compare(IEnumerable<InstanceFacts> fleet, PolicyDocument current, PolicyDocument proposed, DateTimeOffset now)
    {
        var before = StatusCounts.Zero;
        var after = StatusCounts.Zero;
        var changes = new List<StatusChange>();
        foreach (var instance in fleet)
        {
            var was = ComplianceEvaluator.Evaluate(instance, current, now);
            var would = ComplianceEvaluator.Evaluate(instance, proposed, now);
            before = before.Add(was.Status, was.IsStale);
            after = after.Add(would.Status, would.IsStale);
            if (was.Status != would.Status)
                changes.Add(new StatusChange(instance.InstanceId, instance.Name, was.Status, would.Status, would.Explanation));
        }
        return new PolicyImpact(before, after, changes.OrderBy(c => c.InstanceName, StringComparer.OrdinalIgnoreCase).ToList(), now);
    }

    /// <summary>How far the compliance figure moves, in percentage points; null when either side has nothing in scope.</summary>
    public double? PercentMove => Before.CompliancePercent is { } was && After.CompliancePercent is { } would ? would - was : null;
}
