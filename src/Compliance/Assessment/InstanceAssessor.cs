using IfiDashboard.Compliance.Accounts;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Restore;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>Runs the compliance engine over one instance's facts (pure: no I/O).</summary>
public static class InstanceAssessor
{
    /// <summary>How far back growth events count: the longest window, and the zeroing rates and timing evidence.</summary>
    public static readonly TimeSpan History = TimeSpan.FromDays(90);

    static readonly int[] WindowDays = [7, 30, 90];

    /// <param name="collectorLogin">The login the collector uses there, named in the GRANT statements it is advised.</param>
    /// <param name="set">The instance's facts with its growth events since <paramref name="now"/> less <see cref="History"/>.</param>
    /// <returns>
    /// The assessment, the instance's part of the fleet's 7, 30 and 90-day reports, and the first moment at which the
    /// same facts and policy would be assessed otherwise (<see cref="ChangesAt"/>).
    /// </returns>
    public static (InstanceAssessment Assessment, IReadOnlyList<InstanceZeroing> Windows, DateTimeOffset ValidUntil) Assess(
        InstanceState state, InstanceFactSet set, PolicyDocument policy,
        ZeroingRateOptions rateOptions, DateTimeOffset now, string collectorLogin)
    {
        var compliance = ComplianceEvaluator.Evaluate(set.Instance, policy, now);
        // Judged with the policy: where it forbids IFI, zeroing is its cost, not time lost.
        var facts = set.Instance with { IfiForbiddenByPolicy = compliance.Policy.Desired == DesiredState.Forbidden };
        set = set with { Instance = facts };
        // Each event is judged once for the three windows and the zeroing rates: at a million events, judging them
        // once per use was most of an assessment's allocations.
        var assessments = GrowthEventAssessor.AssessAll(set);
        // Instance totals only: the per-database breakdown is built when an API call asks for it (WindowedZeroing).
        var windows = InstanceZeroingWindows.Build(facts, assessments,
            WindowDays.Select(days => new ZeroingWindow(now.AddDays(-days), now)).ToList(), perDatabase: false);
        var (last7, last30, last90) = (windows[0], windows[1], windows[2]);
        var rates = ZeroingRateEstimator.Estimate(set, assessments, rateOptions);
        var assessment = new InstanceAssessment
        {
            State = state,
            Facts = facts,
            Compliance = compliance,
            Rates = rates,
            // The same rates the overload taking options would estimate again.
            Restore = RestoreRiskCalculator.ForInstance(set, rates, new Volumes(rateOptions.MountRoots)),
            Account = ServiceAccountClassifier.Classify(facts.EngineServiceAccount, facts.MachineName, facts.Platform),
            CollectorLogin = collectorLogin,
            TimeLost = new TimeLost(last7.Totals.TimeLost, last30.Totals.TimeLost, last90.Totals.TimeLost, last30.Totals.LogZeroing)
            {
                PolicyCostLast30Days = last30.Totals.PolicyCost,
                IfiUnknownLast7Days = last7.Totals.IfiUnknown,
                IfiUnknownLast30Days = last30.Totals.IfiUnknown,
                IfiUnknownLast90Days = last90.Totals.IfiUnknown,
                Evidence = GrowthTimingEvidence.From(assessments.Where(a => a.Event.StartTime >= now - History)),
                EvidenceSince = facts.EvidenceSince,
                WithoutEvidence = facts.EvidenceSince is null && facts.Ifi.State != IfiState.Enabled
                                  && !facts.IfiForbiddenByPolicy && !facts.IsAzurePaas,
                WindowsEndAt = now,
            },
        };
        return (assessment, windows, ChangesAt(set, policy, now));
    }

    /// <summary>
    /// The first moment after <paramref name="now"/> at which <see cref="Assess"/> may answer otherwise for the same
    /// facts and policy: the compliance verdict's own moments (<see cref="ComplianceEvaluator.ChangesAt"/>), and a
    /// growth event entering or leaving a window. A window of d days at a moment t holds the events that started in
    /// [t − d, t) (<see cref="ZeroingWindow.Contains"/>): an event that started at s is in it for t in (s, s + d], so it
    /// enters one tick after s and leaves one tick after s + d. The 90-day window is also how far back events are read,
    /// the zeroing rates and the timing evidence included.
    /// </summary>
    static DateTimeOffset ChangesAt(InstanceFactSet set, PolicyDocument policy, DateTimeOffset now)
    {
        var next = ComplianceEvaluator.ChangesAt(set.Instance, policy, now);
        var tick = TimeSpan.FromTicks(1);
        foreach (var growth in set.GrowthEvents)
        {
            if (!growth.IsAutoGrowth) continue;
            var entered = growth.StartTime + tick;
            if (entered > now)
            {
                if (entered < next) next = entered;
                continue;
            }
            foreach (var days in WindowDays)
            {
                var left = growth.StartTime.AddDays(days) + tick;
                if (left > now)
                {
                    if (left < next) next = left;
                    break;
                }
            }
        }
        return next;
    }
}
