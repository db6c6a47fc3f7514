using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class ZeroingReportTests
{
    static readonly DateTimeOffset From = new(2025, 5, 1, 0, 0, 0, TimeSpan.Zero);
    static readonly DateTimeOffset To = new(2025, 5, 8, 0, 0, 0, TimeSpan.Zero);

    static readonly InstanceFactSet Sql2019WithoutIfi = Set(
        Instance(IfiState.Disabled, major: 15, id: 1, name: "SQL2019"),
        growths:
        [
            DataGrowth(From, PagesOfMB(512), 4_000_000),                           // first instant of the window
            DataGrowth(From.AddDays(2), PagesOfMB(256), 2_000_000, 6, "Orders", "Orders"),
            LogGrowth(From.AddDays(3), PagesOfMB(64), 1_500_000),                   // zeroed, but not IFI's to save
            DataGrowth(To, PagesOfMB(512), 9_000_000),                             // end is exclusive
            DataGrowth(From.AddTicks(-1), PagesOfMB(512), 9_000_000),              // before the window
        ]);

    static readonly InstanceFactSet Sql2022WithIfi = Set(
        Instance(IfiState.Enabled, major: 16, id: 2, name: "SQL2022"),
        growths:
        [
            DataGrowth(From.AddDays(1), PagesOfMB(1024), 4_000),
            LogGrowth(From.AddDays(1), PagesOfMB(64), 3_000),
            LogGrowth(From.AddDays(1), PagesOfMB(512), 2_500_000),
        ]);

    [Fact]
    public void Time_lost_adds_up_per_database_instance_and_fleet_within_the_window()
    {
        var report = ZeroingReportBuilder.Build([Sql2019WithoutIfi, Sql2022WithIfi], From, To);

        var sql2019 = report.Instances.Single(i => i.InstanceName == "SQL2019");
        Assert.Equal(6_000_000, sql2019.Totals.TimeLostMicroseconds);
        Assert.Equal(2, sql2019.Totals.TimeLostEvents);
        Assert.Equal(1_500_000, sql2019.Totals.LogZeroingMicroseconds);
        Assert.Equal(3, sql2019.Totals.GrowthEvents);
        Assert.Equal([("Sales", 4_000_000L), ("Orders", 2_000_000L)],
            sql2019.Databases.Select(d => (d.DatabaseName, d.Totals.TimeLostMicroseconds)).ToList());

        var sql2022 = report.Instances.Single(i => i.InstanceName == "SQL2022");
        Assert.Equal(0, sql2022.Totals.TimeLostMicroseconds);
        Assert.Equal(1, sql2022.Totals.LogGrowthsNotZeroed);
        Assert.Equal(2_500_000, sql2022.Totals.LogZeroingMicroseconds);

        Assert.Equal(6_000_000, report.Fleet.TimeLostMicroseconds);
        Assert.Equal(4_000_000, report.Fleet.LogZeroingMicroseconds);
        Assert.Equal(6, report.Fleet.GrowthEvents);
        Assert.Equal(PagesOfMB(768) * 8192, report.Fleet.BytesZeroedWithoutIfi);
    }

    [Fact]
    public void Time_lost_judged_on_todays_state_is_reported_as_assumed()
    {
        var report = ZeroingReportBuilder.Build([Sql2019WithoutIfi], From, To);

        Assert.Equal(report.Fleet.TimeLostMicroseconds, report.Fleet.TimeLostAssumedMicroseconds);
    }

    [Fact]
    public void Time_lost_with_history_is_not_assumed()
    {
        var withHistory = Sql2019WithoutIfi with
        {
            History = [Poll(To, IfiState.Disabled, From.AddDays(-10))],
        };

        var report = ZeroingReportBuilder.Build([withHistory], From, To);

        Assert.Equal(6_000_000, report.Fleet.TimeLostMicroseconds);
        Assert.Equal(0, report.Fleet.TimeLostAssumedMicroseconds);
    }
}
