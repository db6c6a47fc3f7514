namespace IfiDashboard.Compliance.Alerts;

/// <summary>
/// One open episode of a rule for an instance, as stored. <see cref="Subject"/> tells episodes of the same rule apart
/// where that matters (the waiver's expiry).
/// </summary>
public sealed record AlertState(long InstanceId, AlertRule Rule, string Subject, DateTimeOffset OpenedAt, DateTimeOffset? NotifiedAt, int NotifyCount);
