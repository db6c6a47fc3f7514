using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Restore;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

/// <summary>The worked example of docs/compliance.md, figure for figure: if one changes, both must.</summary>
public class WorkedExampleTests
{
    static readonly DateTimeOffset From = new(2025, 5, 1, 0, 0, 0, TimeSpan.Zero);
    static readonly DateTimeOffset To = new(2025, 5, 8, 0, 0, 0, TimeSpan.Zero);

    static InstanceFactSet Sqlfin01(int major) => Set(
        Instance(IfiState.Disabled, major: major, name: "SQLFIN01") with
        {
            EngineServiceAccount = @"NT Service\MSSQLSERVER",
        },
        [
            DataFile(5, "Finance", "Finance", sizePages: 26_214_400, path: @"D:\Data\Finance.mdf", growth: 10, percent: true),
            LogFile(5, "Finance", "Finance_log", sizePages: 1_310_720, path: @"L:\Logs\Finance_log.ldf", growth: 8192),
        ],
        [
            DataGrowth(From.AddDays(1), 8_192, 800_000, 5, "Finance", "Finance"),
            DataGrowth(From.AddDays(2), 32_768, 2_560_000, 5, "Finance", "Finance"),
            DataGrowth(From.AddDays(3), 131_072, 8_192_000, 5, "Finance", "Finance"),
            LogGrowth(From.AddDays(3), 8_192, 500_000, 5, "Finance", "Finance_log"),
        ]);

    [Fact]
    public void Status_of_the_example_instance()
    {
        var status = ComplianceEvaluator.Evaluate(Sqlfin01(15).Instance, PolicyDocument.Empty, Now);

        Assert.Equal(ComplianceStatus.NonCompliant, status.Status);
        Assert.Equal("IFI is off but the default policy requires it", status.Explanation);
    }

    [Fact]
    public void Rate_is_125_MB_per_second()
    {
        var rate = ZeroingRateEstimator.Estimate(Sqlfin01(15), new ZeroingRateOptions()).Instance;

        Assert.Equal(131_072_000, rate.BytesPerSecond);
        Assert.Equal(2, rate.SampleCount);
        Assert.Equal("125.0 MB/s, size-weighted median of 2 growth events on this instance", rate.Describe());
    }

    [Fact]
    public void Time_lost_is_11_552_seconds_and_log_zeroing_half_a_second_apart()
    {
        var totals = ZeroingReportBuilder.Build([Sqlfin01(15)], From, To).Fleet;

        Assert.Equal(11_552_000, totals.TimeLostMicroseconds);
        Assert.Equal(TimeSpan.FromSeconds(11.552), totals.TimeLost);
        Assert.Equal(500_000, totals.LogZeroingMicroseconds);
        Assert.Equal(12_052_000, totals.GrowthMicroseconds);
    }

    [Fact]
    public void On_SQL_Server_2022_the_64_MB_log_growth_is_not_zeroed()
    {
        var totals = ZeroingReportBuilder.Build([Sqlfin01(16)], From, To).Fleet;

        Assert.Equal(11_552_000, totals.TimeLostMicroseconds);
        Assert.Equal(0, totals.LogZeroingMicroseconds);
        Assert.Equal(1, totals.LogGrowthsNotZeroed);
    }

    [Fact]
    public void Restore_of_200_GB_spends_1556_seconds_more_than_the_log_and_next_growth_stalls_163_84_seconds()
    {
        var risk = RestoreRiskCalculator.ForInstance(Sqlfin01(15), new ZeroingRateOptions());

        var finance = risk.Databases.Single();
        Assert.Equal(214_748_364_800, finance.DataBytes);
        Assert.Equal(81.92, finance.LogZeroingSeconds, precision: 9);
        Assert.Equal(1638.4 - 81.92, finance.ExtraSeconds, precision: 9);
        Assert.Equal(25.94, finance.ExtraMinutes, precision: 2);
        Assert.Equal(163.84, risk.GrowthStalls.Single().StallSeconds!.Value, precision: 9);
    }
}
