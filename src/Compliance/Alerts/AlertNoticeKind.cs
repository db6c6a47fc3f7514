namespace IfiDashboard.Compliance.Alerts;

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

    /// <summary>
    /// A problem found by an instance's first assessment after registration. The baseline problems of one evaluation
    /// go to each recipient list as one mail (kind <see cref="Baseline"/> in the outbox), not a mail per instance.
    /// </summary>
    Baseline,

    Digest,
    Test,

    /// <summary>The previous month's evidence report with its CSV and JSON (<c>Reports:Evidence:Monthly</c>).</summary>
    EvidenceReport,

    /// <summary>A collector took over more instances from other collectors than <c>Ingestion:TakeoverAlertThreshold</c> in an hour.</summary>
    CollectorTakeover,

    /// <summary>A collector has not asked for a lease nor delivered a snapshot for <c>Ingestion:TakeoverDelay</c>.</summary>
    CollectorSilent,

    /// <summary>
    /// One entry of the changes feed for a change webhook subscription (<c>change_webhooks</c>): sent through this
    /// outbox with its retries, also while alerts are off (docs/api.md, "Change webhooks").
    /// </summary>
    Change,
    /// <summary>A collector whose silence was mailed has been heard from again (a lease or a delivery).</summary>
    CollectorBack,

    /// <summary>
    /// An availability group failed over, or a failover cluster instance moved to another node, and the instance now in
    /// charge lacks IFI where policy requires it: growth and restores on the new primary zero data files
    /// (<c>Alerts:Rules:Failover</c>, docs/alerts.md "Failovers").
    /// </summary>
    FailoverWithoutIfi,

    /// <summary>
    /// The same event where the new primary's IFI is as policy wants it (or not known): the roles changed, for the
    /// record (<c>Alerts:Rules:FailoverNotice</c>).
    /// </summary>
    Failover,
}
