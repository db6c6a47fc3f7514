using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>
/// The whole fleet assessed at one moment. Computed in the background when stored data changes, so pages render from
/// memory; <see cref="ComputedAt"/> says how fresh it is.
/// </summary>
public sealed record FleetAssessment
{
    public required DateTimeOffset ComputedAt { get; init; }
    public required int PolicyVersion { get; init; }
    public required IReadOnlyList<InstanceAssessment> Instances { get; init; }
    /// <summary>Fleet-wide zeroing for the last 7, 30 and 90 days (per instance and database inside).</summary>
    public required ZeroingReport Last7Days { get; init; }
    public required ZeroingReport Last30Days { get; init; }
    public required ZeroingReport Last90Days { get; init; }
    /// <summary>Compliance per day, oldest first, for the trend chart.</summary>
    public required IReadOnlyList<DailyCompliance> Daily { get; init; }
    /// <summary>The newest poll stored for any instance: "data last refreshed".</summary>
    public DateTimeOffset? LastPollAt { get; init; }
    /// <summary>How many active instances have been polled at least once (progress of a first round).</summary>
    public required int Polled { get; init; }

    /// <summary>
    /// Active instances left out of every figure because an earlier registration reaches the same server (by address,
    /// or by the name the server reported): their ids, with the registration that counts.
    /// </summary>
    public IReadOnlyDictionary<long, InstanceRegistration> DuplicateOf { get; init; } = new Dictionary<long, InstanceRegistration>();

    public InstanceAssessment? Find(long instanceId) => Instances.FirstOrDefault(i => i.Registration.Id == instanceId);

    public static FleetAssessment Empty(DateTimeOffset at) => new()
    {
        ComputedAt = at,
        PolicyVersion = 0,
        Instances = [],
        Last7Days = new ZeroingReport(at.AddDays(-7), at, new ZeroingTotals(), []),
        Last30Days = new ZeroingReport(at.AddDays(-30), at, new ZeroingTotals(), []),
        Last90Days = new ZeroingReport(at.AddDays(-90), at, new ZeroingTotals(), []),
        Daily = [],
        Polled = 0,
    };
}

/// <summary>The current assessment of the fleet.</summary>
public interface IFleetAssessments
{
    /// <summary>The latest assessment; computes one first if none exists yet.</summary>
    Task<FleetAssessment> GetAsync(CancellationToken cancellationToken);

    /// <summary>Raised after a new assessment replaced the previous one (stored changes settled, or the minute passed).</summary>
    event Action? Assessed;
}
