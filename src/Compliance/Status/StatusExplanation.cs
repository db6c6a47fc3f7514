using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Status;

/// <summary>The one-line sentence shown beside a status.</summary>
public static class StatusExplanation
{
    public static string Explain(ComplianceStatus status, PolicyDecision decision, InstanceFacts instance, Waiver? waiver) =>
        status switch
        {
            ComplianceStatus.NotApplicable => NotApplicable(decision, instance),
            ComplianceStatus.Unknown when instance.Ifi.State != IfiState.Unknown && decision.Source == PolicySource.Undecided =>
                Undecided(decision),
            ComplianceStatus.Unknown => $"IFI state unknown ({instance.Ifi.UnknownReason ?? "no reason given"})",
            ComplianceStatus.Compliant => decision.Desired == DesiredState.Forbidden
                ? $"IFI is off, as {decision.Origin} requires"
                : $"IFI is on, as {decision.Origin} requires",
            ComplianceStatus.NonCompliant => Deviation(decision, instance),
            ComplianceStatus.Waived => Waived(decision, instance, waiver),
            _ => status.ToString(),
        };

    /// <summary>"Policy undecided: policy 'Linux hosts' selects by platform, which is unknown (...)".</summary>
    public static string Undecided(PolicyDecision decision) =>
        "Policy undecided: " + string.Join("; ", decision.Unevaluated.Select(u => u.Sentence));

    /// <summary>
    /// A flag that overrides the right is said where the status is: the service account holds the right (the DMV says
    /// 'Y'), so "IFI is off" alone would send a DBA to grant it again. The trace-flags probe names which flag.
    /// </summary>
    static string Deviation(PolicyDecision decision, InstanceFacts instance) => instance.Ifi.State == IfiState.Enabled
        ? $"IFI is on but {decision.Origin} forbids it"
        : instance.IfiOffByTraceFlag
            ? $"IFI is off for data files (trace flag {RemediationAdvisor.DisablingFlags} overrides the right the service account holds) but {decision.Origin} requires it"
            : $"IFI is off but {decision.Origin} requires it";

    static string Waived(PolicyDecision decision, InstanceFacts instance, Waiver? waiver) => waiver is null
        ? Deviation(decision, instance)
        : $"{Deviation(decision, instance)}; waived by {waiver.Author} until " +
          $"{ComplianceFormat.Moment(waiver.ExpiresAt)}: {waiver.Reason}";

    static string NotApplicable(PolicyDecision decision, InstanceFacts instance) => decision.Source switch
    {
        PolicySource.Platform => instance.EngineEdition == 8
            ? "Azure SQL Managed Instance: IFI cannot be configured"
            : "Azure SQL Database: IFI cannot be configured",
        _ => $"IFI is not applicable under {decision.Origin}",
    };
}
