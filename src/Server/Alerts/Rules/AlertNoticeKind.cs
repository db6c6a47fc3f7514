namespace IfiDashboard.Server.Alerts.Rules;

/// <summary>What a message in the outbox is.</summary>
public enum AlertNoticeKind
{
    /// <summary>An instance entered a problem (or stayed Unknown past the threshold).</summary>
    Opened,

    /// <summary>The problem still lasts after the re-notify interval.</summary>
    Reminder,

    /// <summary>A problem someone was told about has ended.</summary>
    Resolved,

    /// <summary>Several of the above for one recipient list in one mail: an alert storm (<c>Alerts:Storm</c>).</summary>
    Grouped,

    Digest,
    Test,
}
