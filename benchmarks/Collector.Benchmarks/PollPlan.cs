using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>What a phase polls: each instance once, or round after round until <see cref="Duration"/> has passed.</summary>
internal sealed record PollPlan(IReadOnlyList<InstanceRegistration> Instances, TimeSpan? Duration)
{
    public bool Repeats => Duration is not null;
}
