using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Tests;

public sealed class ZeroingCombineTests
{
    static InstanceFactSet Instance(long id, IfiState ifi, params long[] durationsUs) => new()
    {
        Instance = new InstanceFacts { Registration = new() { Id = id, Name = $"sql{id}", Host = $"sql{id}" }, MajorVersion = 15, Ifi = new IfiObservation(ifi, null) },
        GrowthEvents = durationsUs.Select((d, i) => new GrowthEventFacts
        {
            EventClass = i % 2 == 0 ? 92 : 93, DatabaseId = 5, DatabaseName = "Sales", LogicalFileName = i % 2 == 0 ? "Sales" : "Sales_log",
            StartTime = new DateTimeOffset(2026, 5, 1, 0, 0, 0, TimeSpan.Zero).AddHours(i), DurationMicroseconds = d, GrowthPages = 8192,
        }).ToList(),
    };

    [Fact]
    public void Fleet_built_instance_by_instance_equals_the_fleet_built_at_once()
    {
        var fleet = new[] { Instance(1, IfiState.Disabled, 4_000_000, 900_000, 2_000_000), Instance(2, IfiState.Enabled, 10_000, 700_000), Instance(3, IfiState.Unknown, 1_500_000) };
        var from = new DateTimeOffset(2026, 4, 1, 0, 0, 0, TimeSpan.Zero);
        var to = from.AddDays(60);

        var atOnce = ZeroingReportBuilder.Build(fleet, from, to);
        var combined = ZeroingReportBuilder.Combine(from, to, fleet.Select(f => ZeroingReportBuilder.BuildInstance(f, from, to)).ToList());

        Assert.Equal(atOnce.Fleet, combined.Fleet);
        Assert.Equal(6_000_000, combined.Fleet.TimeLostMicroseconds);
        Assert.Equal(atOnce.Instances.Select(i => i.Totals), combined.Instances.Select(i => i.Totals));
    }
}
