using IfiDashboard.Shared.Compliance.Accounts;
using IfiDashboard.Shared.Compliance.Facts;
using IfiDashboard.Shared.Compliance.Files;
using IfiDashboard.Shared.Compliance.Policy;
using IfiDashboard.Shared.Compliance.Remediation;
using IfiDashboard.Shared.Compliance.Restore;
using IfiDashboard.Shared.Compliance.Status;
using IfiDashboard.Shared.Compliance.Zeroing;
using IfiDashboard.Shared.Dashboard;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Compliance;

/// <summary>Runs the compliance engine over one instance's facts (pure: no I/O).</summary>
internal static class InstanceAssessor
{
    public static InstanceFacts Facts(InstanceRegistration registration, InstanceListRow state, InstanceFactRow? extra)
    {
        var serverName = extra?.ServerName;
        var separator = serverName?.IndexOf('\\') ?? -1;
        return new InstanceFacts
        {
            InstanceId = registration.Id,
            Name = registration.Name,
            Environment = registration.Environment,
            Tags = registration.Tags,
            Owner = registration.Owner,
            MajorVersion = state.ProductVersion is null ? 0 : ProductVersions.Major(state.ProductVersion),
            ProductVersion = state.ProductVersion,
            EngineEdition = extra?.EngineEdition is { } edition ? (int)edition : null,
            // No identity yet: the platform is unknown, not "Windows because there was no host info".
            Platform = state.ProductVersion is null ? HostPlatform.Unknown : HostPlatforms.Parse(state.HostPlatform),
            MachineName = separator > 0 ? serverName![..separator] : serverName,
            SqlInstanceName = registration.InstanceName ?? (separator > 0 ? serverName![(separator + 1)..] : null),
            Ifi = new IfiObservation(state.IfiState, state.IfiUnknownReason),
            LastGoodPollAt = state.LastGoodPollAt,
            PollInterval = TimeSpan.FromSeconds(Math.Max(1, registration.PollIntervalSeconds)),
            EngineServiceAccount = state.EngineServiceAccount,
            ServiceStartedAt = extra?.EngineLastStartupTime,
            EvidenceSince = extra?.EvidenceSince,
            IsClustered = extra?.IsClustered == 1,
            ClusterNodes = extra?.ClusterNodes?.Split(',', StringSplitOptions.RemoveEmptyEntries),
            IfiOffByTraceFlag = state.IfiState == IfiState.Disabled && extra?.EngineDmvIfiEnabled == "Y",
        };
    }

    /// <param name="collectorLogin">The login the collector uses there, named in the GRANT statements it is advised.</param>
    public static InstanceAssessment Assess(InstanceRegistration registration, InstanceListRow state, InstanceFactSet set,
        PolicyDocument policy, ZeroingRateOptions rateOptions, DateTimeOffset now, string collectorLogin,
        out IReadOnlyList<InstanceZeroing> windows)
    {
        var compliance = ComplianceEvaluator.Evaluate(set.Instance, policy, now);
        // Judged with the policy: where it forbids IFI, zeroing is its cost, not time lost.
        var facts = set.Instance with { IfiForbiddenByPolicy = compliance.Policy.Desired == DesiredState.Forbidden };
        set = set with { Instance = facts };
        // Each event is judged once for the three windows and the zeroing rates: at a million events, judging them
        // once per use was most of an assessment's allocations.
        var assessments = GrowthEventAssessor.AssessAll(set);
        windows = InstanceZeroingWindows.Build(facts, assessments,
            [new ZeroingWindow(now.AddDays(-7), now), new ZeroingWindow(now.AddDays(-30), now), new ZeroingWindow(now.AddDays(-90), now)]);
        var (last7, last30, last90) = (windows[0], windows[1], windows[2]);
        var rates = ZeroingRateEstimator.Estimate(set, assessments, rateOptions);
        return new InstanceAssessment
        {
            Registration = registration,
            State = state,
            Facts = facts,
            Compliance = compliance,
            Rates = rates,
            // The same rates the overload taking options would estimate again.
            Restore = RestoreRiskCalculator.ForInstance(set, rates, new Volumes(rateOptions.MountRoots)),
            Account = ServiceAccountClassifier.Classify(facts.EngineServiceAccount, facts.MachineName, facts.Platform),
            Remediation = RemediationAdvisor.For(facts, compliance, collectorLogin),
            CollectorLogin = collectorLogin,
            TimeLost = new TimeLost(last7.Totals.TimeLost, last30.Totals.TimeLost, last90.Totals.TimeLost, last30.Totals.LogZeroing)
            {
                PolicyCostLast30Days = last30.Totals.PolicyCost,
                IfiUnknownLast7Days = last7.Totals.IfiUnknown,
                IfiUnknownLast30Days = last30.Totals.IfiUnknown,
                IfiUnknownLast90Days = last90.Totals.IfiUnknown,
                Evidence = GrowthTimingEvidence.From(assessments.Where(a => a.Event.StartTime >= now.AddDays(-90))),
                EvidenceSince = facts.EvidenceSince,
                WindowsEndAt = now,
            },
        };
    }
}
