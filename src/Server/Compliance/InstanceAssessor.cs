using IfiDashboard.Shared.Compliance.Accounts;
using IfiDashboard.Shared.Compliance.Facts;
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
            EngineEdition = extra?.EngineEdition is { } edition ? (int)edition : null,
            // No identity yet: the platform is unknown, not "Windows because there was no host info".
            Platform = state.ProductVersion is null ? HostPlatform.Unknown : HostPlatforms.Parse(state.HostPlatform),
            MachineName = separator > 0 ? serverName![..separator] : serverName,
            SqlInstanceName = registration.InstanceName ?? (separator > 0 ? serverName![(separator + 1)..] : null),
            Ifi = new IfiObservation(state.IfiState, state.IfiUnknownReason),
            LastGoodPollAt = state.LastGoodPollAt,
            PollInterval = TimeSpan.FromSeconds(Math.Max(1, registration.PollIntervalSeconds)),
            EngineServiceAccount = state.EngineServiceAccount,
            ServiceStartedAt = extra?.EngineLastStartupTime is { } started ? Store.StoreTime.Parse(started) : null,
        };
    }

    public static InstanceAssessment Assess(InstanceRegistration registration, InstanceListRow state, InstanceFactSet set,
        PolicyDocument policy, ZeroingRateOptions rateOptions, DateTimeOffset now, out IReadOnlyList<InstanceZeroing> windows)
    {
        var facts = set.Instance;
        var compliance = ComplianceEvaluator.Evaluate(facts, policy, now);
        var last7 = ZeroingReportBuilder.BuildInstance(set, now.AddDays(-7), now);
        var last30 = ZeroingReportBuilder.BuildInstance(set, now.AddDays(-30), now);
        var last90 = ZeroingReportBuilder.BuildInstance(set, now.AddDays(-90), now);
        windows = [last7, last30, last90];
        return new InstanceAssessment
        {
            Registration = registration,
            State = state,
            Facts = facts,
            Compliance = compliance,
            Rates = ZeroingRateEstimator.Estimate(set, rateOptions),
            Restore = RestoreRiskCalculator.ForInstance(set, rateOptions),
            Account = ServiceAccountClassifier.Classify(facts.EngineServiceAccount, facts.MachineName, facts.Platform),
            Remediation = RemediationAdvisor.For(facts, compliance),
            TimeLost = new TimeLost(last7.Totals.TimeLost, last30.Totals.TimeLost, last90.Totals.TimeLost, last30.Totals.LogZeroing),
        };
    }
}
