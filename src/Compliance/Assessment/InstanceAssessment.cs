using IfiDashboard.Compliance.Accounts;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Restore;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>
/// One instance as the dashboard shows it: how it is registered, what the last polls saw, and the compliance
/// engine's verdict and numbers. Raw growth events are not kept here (the instance page reads them on demand).
/// </summary>
public sealed record InstanceAssessment
{
    /// <summary>Who the instance is and how it is reached: held once, in the facts the engine assessed.</summary>
    public InstanceRegistration Registration => Facts.Registration;
    /// <summary>The latest stored state: version, platform, account, IFI, last poll and its outcome.</summary>
    public required InstanceState State { get; init; }
    public required InstanceFacts Facts { get; init; }
    public required InstanceCompliance Compliance { get; init; }
    public required InstanceZeroingRates Rates { get; init; }
    public required InstanceRestoreRisk Restore { get; init; }
    public required ServiceAccountClassification Account { get; init; }
    /// <summary>
    /// What a DBA should do, derived from the facts, the verdict and the login each time a page, mail, API call or
    /// pack asks for one instance's plan. Not held: the plans' text for every instance of the fleet was kept in each
    /// assessment, and twice while a build replaced the one in use (docs/benchmarks.md, issue 33).
    /// </summary>
    public RemediationPlan Remediation => RemediationAdvisor.For(Facts, Compliance, CollectorLogin);
    /// <summary>The login the collector uses on this instance, as the GRANT statements name it.</summary>
    public string CollectorLogin { get; init; } = RemediationAdvisor.CollectorLoginPlaceholder;
    /// <summary>A remediation pack covered the instance and no poll has confirmed it yet.</summary>
    public RemediationPending? RemediationPending { get; init; }
    /// <summary>Time IFI would have saved in the last 7, 30 and 90 days (data files without effective IFI).</summary>
    public required TimeLost TimeLost { get; init; }
}

/// <summary>
/// Avoidable zeroing time (IFI would have saved it) and, apart, log zeroing IFI cannot avoid and the zeroing a policy
/// that forbids IFI costs. Growth time whose IFI state is unknown is in none of them: while it is above zero the lost
/// figure of that window is unknown (or a lower bound), never "0 s", and <see cref="Evidence"/> says what the growth
/// timings suggest. So is a window with no growth evidence at all where IFI was not on (<see cref="WithoutEvidence"/>).
/// </summary>
public sealed record TimeLost(TimeSpan Last7Days, TimeSpan Last30Days, TimeSpan Last90Days, TimeSpan LogZeroingLast30Days)
{
    public TimeSpan PolicyCostLast30Days { get; init; }
    public TimeSpan IfiUnknownLast7Days { get; init; }
    public TimeSpan IfiUnknownLast30Days { get; init; }
    public TimeSpan IfiUnknownLast90Days { get; init; }
    public GrowthTimingEvidence Evidence { get; init; } = GrowthTimingEvidence.None;

    /// <summary>
    /// No default trace was ever read (disabled, refused, never polled) while IFI was not known to be on and no policy
    /// forbids it: a growth could have been zeroed and nothing could have seen it, so 0 s would be a claim without
    /// evidence. Every surface then says "unknown" (issue 29: IFI off, trace disabled, "0 s lost" everywhere).
    /// </summary>
    public bool WithoutEvidence { get; init; }

    /// <summary>
    /// The oldest default-trace event any poll saw: a window that starts before it covers less than its days (a new
    /// registration's "90 days" may rest on a few days of trace). Null when the trace was never read.
    /// </summary>
    public DateTimeOffset? EvidenceSince { get; init; }

    /// <summary>When the windows end (the assessment's "now").</summary>
    public DateTimeOffset WindowsEndAt { get; init; }

    /// <summary>
    /// What a figure over the last <paramref name="days"/> days rests on, to be said beside it: null when the
    /// evidence covers the whole window, else "no growth evidence read yet" or "evidence covers 4 min, since
    /// 2026-11-24 15:56 +00:00".
    /// </summary>
    public string? EvidenceNote(int days)
    {
        if (EvidenceSince is not { } since)
            return "no growth evidence read yet";
        if (since <= WindowsEndAt.AddDays(-days))
            return null;
        var covered = WindowsEndAt - since;
        var span = covered.TotalDays >= 1 ? $"{(int)covered.TotalDays} d"
            : covered.TotalHours >= 1 ? $"{(int)covered.TotalHours} h"
            : $"{Math.Max(0, (int)covered.TotalMinutes)} min";
        return $"evidence covers {span}, since {ComplianceFormat.Moment(since)}";
    }

    /// <summary>
    /// How sure a window's figure is: unknown when nothing is known to be lost and some growth had an unknown IFI
    /// state or no growth could have been seen (<paramref name="withoutEvidence"/>); at least the figure when some
    /// was lost besides; else exact. The one rule every page, CSV, API field and mail follows.
    /// </summary>
    public static TimeLostCertainty CertaintyOf(TimeSpan lost, TimeSpan ifiUnknown, bool withoutEvidence) =>
        lost <= TimeSpan.Zero && (ifiUnknown > TimeSpan.Zero || withoutEvidence) ? TimeLostCertainty.Unknown
        : ifiUnknown > TimeSpan.Zero || withoutEvidence ? TimeLostCertainty.AtLeast
        : TimeLostCertainty.Exact;

    /// <summary>A window's figure as every page and mail shows it: "unknown", "at least X" or X (<see cref="CertaintyOf"/>).</summary>
    public static string Show(TimeSpan lost, TimeSpan ifiUnknown, bool withoutEvidence, Func<TimeSpan, string> duration) =>
        CertaintyOf(lost, ifiUnknown, withoutEvidence) switch
        {
            TimeLostCertainty.Unknown => "unknown",
            TimeLostCertainty.AtLeast => $"at least {duration(lost)}",
            _ => duration(lost),
        };

    /// <summary>Nothing is known to be lost, and some growth had an unknown IFI state or none could be seen.</summary>
    public static bool IsUnknown(TimeSpan lost, TimeSpan ifiUnknown, bool withoutEvidence) =>
        CertaintyOf(lost, ifiUnknown, withoutEvidence) == TimeLostCertainty.Unknown;

    /// <summary>The certainty of this instance's 7, 30 or 90-day figure.</summary>
    public TimeLostCertainty Certainty(int days) => days switch
    {
        7 => CertaintyOf(Last7Days, IfiUnknownLast7Days, WithoutEvidence),
        30 => CertaintyOf(Last30Days, IfiUnknownLast30Days, WithoutEvidence),
        90 => CertaintyOf(Last90Days, IfiUnknownLast90Days, WithoutEvidence),
        _ => throw new ArgumentOutOfRangeException(nameof(days), days, "The windows are 7, 30 and 90 days."),
    };

    public string Show30Days(Func<TimeSpan, string> duration) => Show(Last30Days, IfiUnknownLast30Days, WithoutEvidence, duration);

    /// <summary>The 30-day figure with how far back its evidence reaches when that is less: what mail shows.</summary>
    public string Show30DaysWithEvidence(Func<TimeSpan, string> duration) =>
        Show30Days(duration) + (EvidenceNote(30) is { } evidence ? $" ({evidence})" : "");
}

/// <summary>How sure a time-lost figure is (<see cref="TimeLost.CertaintyOf"/>).</summary>
public enum TimeLostCertainty
{
    /// <summary>Every growth in the window was judged and seen.</summary>
    Exact,
    /// <summary>Some growth's IFI state was unknown, or none could be seen on some instance: the figure is a lower bound.</summary>
    AtLeast,
    /// <summary>Nothing is known to be lost and something could have been: no figure, never 0.</summary>
    Unknown,
}
