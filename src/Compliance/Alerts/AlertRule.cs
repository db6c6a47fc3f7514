namespace IfiDashboard.Compliance.Alerts;

/// <summary>The problems an instance can be in; each has its own episode (state row) per instance.</summary>
public enum AlertRule
{
    /// <summary>IFI off where policy requires it, or on where policy forbids it.</summary>
    NonCompliant,

    /// <summary>IFI state unknown for longer than <see cref="AlertRuleOptions.UnknownAfter"/>.</summary>
    Unknown,

    /// <summary>The waiver that makes an instance Waived ends within <see cref="AlertRuleOptions.WaiverExpiringDays"/>.</summary>
    WaiverExpiring,
}
