using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
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
            ComplianceStatus.NonCompliant => Deviation(decision, instance.Ifi.State),
            ComplianceStatus.Waived => Waived(decision, instance.Ifi.State, waiver),
            _ => status.ToString(),
        };

    /// <summary>"Policy undecided: policy 'Linux hosts' selects by platform, which is unknown (...)".</summary>
    public static string Undecided(PolicyDecision decision) =>
        "Policy undecided: " + string.Join("; ", decision.Unevaluated.Select(u => u.Sentence));

    static string Deviation(PolicyDecision decision, IfiState observed) => observed == IfiState.Enabled
        ? $"IFI is on but {decision.Origin} forbids it"
        : $"IFI is off but {decision.Origin} requires it";

    static string Waived(PolicyDecision decision, IfiState observed, Waiver? waiver) => waiver is null
        ? Deviation(decision, observed)
        : $"{Deviation(decision, observed)}; waived by {waiver.Author} until " +
          $"{ComplianceFormat.Moment(waiver.ExpiresAt)}: {waiver.Reason}";

    static string NotApplicable(PolicyDecision decision, InstanceFacts instance) => decision.Source switch
    {
        PolicySource.Platform => instance.EngineEdition == 8
            ? "Azure SQL Managed Instance: IFI cannot be configured"
            : "Azure SQL Database: IFI cannot be configured",
        _ => $"IFI is not applicable under {decision.Origin}",
    };
}
