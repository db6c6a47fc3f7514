namespace IfiDashboard.Store.Retention;

/// <summary>
/// The <c>Retention</c> configuration section: how long store history is kept. Only history is pruned; the current
/// state of every instance, the IFI change timeline and the API's change journal are kept for ever.
/// </summary>
public sealed class RetentionOptions
{
    public const string SectionName = "Retention";

    /// <summary>The compliance report's longest window (last 90 days) reads growth events this old.</summary>
    public const int MinGrowthEventDays = 90;

    /// <summary>
    /// The evidence report's longest period (366 days) with a month to make it: its <c>changes</c> section reads the
    /// audit log of the period, so no retention may prune an entry it can still ask for.
    /// </summary>
    public const int MinAuditDays = 400;

    /// <summary>An upper bound that keeps "now minus the period" a valid date; about a century.</summary>
    public const int MaxDays = 36_500;

    /// <summary>The most ids one batch may hold: well under SQLite's and PostgreSQL's bound-parameter limits.</summary>
    public const int MaxBatchSize = 10_000;

    /// <summary>On by default: without it polls and growth events grow without bound.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>Polls with their probe outcomes and service rows, by poll start time.</summary>
    public int PollDays { get; set; } = 90;

    /// <summary>Growth and shrink events, by event start time. 400 covers the API's longest window (366 days).</summary>
    public int GrowthEventDays { get; set; } = 400;

    /// <summary>Sent and failed alert mails, by the time they were written; pending mail is never pruned.</summary>
    public int AlertOutboxDays { get; set; } = 180;

    /// <summary>Audit entries and refusal counts, by the time they were written: seven years by default, as banks
    /// commonly keep audit trails.</summary>
    public int AuditDays { get; set; } = 2557;

    /// <summary>Minutes between pruning passes.</summary>
    public int IntervalMinutes { get; set; } = 60;

    /// <summary>Rows deleted per transaction: small, so the collector never waits long for SQLite's write lock.</summary>
    public int BatchSize { get; set; } = 500;

    /// <summary>Pause between two batches of one pass, so waiting writers get the lock in between.</summary>
    public int BatchPauseMilliseconds { get; set; } = 50;
}
