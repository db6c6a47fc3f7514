using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Alerts;

namespace IfiDashboard.Server.Alerts.Rules;

/// <summary>Whether a rule's problem holds for an instance now, has ended, or cannot be seen.</summary>
public readonly record struct AlertCondition(AlertConditionKind Kind, string Subject = "")
{
    static readonly AlertCondition Ends = new(AlertConditionKind.Ends);
    static readonly AlertCondition Unseen = new(AlertConditionKind.Unseen);

    public static AlertCondition Check(AlertRule rule, InstanceAssessment instance, DateTimeOffset now, AlertRuleOptions options)
    {
        var status = instance.Compliance.Status;
        return rule switch
        {
            // While we cannot see the instance, a known deviation is not over: keep the episode, send nothing.
            AlertRule.NonCompliant => status switch
            {
                ComplianceStatus.NonCompliant => new(AlertConditionKind.Holds),
                ComplianceStatus.Unknown => Unseen,
                _ => Ends,
            },
            AlertRule.Unknown => status == ComplianceStatus.Unknown ? new(AlertConditionKind.Holds) : Ends,
            AlertRule.WaiverExpiring => status switch
            {
                ComplianceStatus.Waived when instance.Compliance.Waiver is { } waiver &&
                    waiver.ExpiresAt - now <= TimeSpan.FromDays(options.WaiverExpiringDays) =>
                    new(AlertConditionKind.Holds, waiver.ExpiresAt.UtcDateTime.ToString("O")),
                ComplianceStatus.Unknown => Unseen,
                _ => Ends,
            },
            _ => Ends,
        };
    }
}

public enum AlertConditionKind
{
    Holds,
    Ends,

    /// <summary>The instance's IFI state is unknown, so this rule can neither hold nor end.</summary>
    Unseen,
}
