using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;

namespace IfiDashboard.Compliance.Tests;

public class FixFirstTests
{
    static FixFigures Instance(long id, string name, string environment, double lostMinutes = 0, double restoreSeconds = 0,
        ComplianceStatus status = ComplianceStatus.NonCompliant) =>
        new(id, name, environment, status, TimeSpan.FromMinutes(lostMinutes), restoreSeconds);

    static IEnumerable<string> Names(IEnumerable<FixFigures> fleet) => FixFirst.Rank(fleet, f => f).Select(f => f.InstanceName);

    [Fact]
    public void Only_instances_not_compliant_and_not_waived_are_to_fix()
    {
        FixFigures[] fleet =
        [
            Instance(1, "SQLWAIVED", "Production", lostMinutes: 500, status: ComplianceStatus.Waived),
            Instance(2, "SQLUNKNOWN", "Production", lostMinutes: 400, status: ComplianceStatus.Unknown),
            Instance(3, "SQLOK", "Production", lostMinutes: 300, status: ComplianceStatus.Compliant),
            Instance(4, "AZDB", "Production", status: ComplianceStatus.NotApplicable),
            Instance(5, "SQLOFF", "Production", lostMinutes: 1),
        ];

        Assert.Equal(["SQLOFF"], Names(fleet));
    }

    [Fact]
    public void Production_comes_before_test_whatever_test_loses()
    {
        FixFigures[] fleet =
        [
            Instance(1, "SQLTEST", "Test", lostMinutes: 600, restoreSeconds: 7200),
            Instance(2, "SQLSTAGE", "Staging", lostMinutes: 300),
            Instance(3, "SQLPROD", "Production"),
            Instance(4, "SQLDR", "DR", lostMinutes: 1),
            Instance(5, "SQLCMDB", "Finance-East", lostMinutes: 2),
        ];

        // Production and DR first, a name the ranking does not know next, then pre-production, then test.
        Assert.Equal(["SQLDR", "SQLPROD", "SQLCMDB", "SQLSTAGE", "SQLTEST"], Names(fleet));
    }

    [Fact]
    public void Within_an_environment_time_lost_and_the_restore_wait_rank_together()
    {
        FixFigures[] fleet =
        [
            Instance(1, "A-SMALL-LOSS", "Production", lostMinutes: 3),
            Instance(2, "B-BIG-RESTORE", "Production", restoreSeconds: 40 * 60),
            Instance(3, "C-BOTH", "Production", lostMinutes: 30, restoreSeconds: 15 * 60),
            Instance(4, "D-NOTHING", "Production"),
        ];

        // 45 min, 40 min, 3 min, 0: one restore's wait counts as much as the same time lost to growths.
        Assert.Equal(["C-BOTH", "B-BIG-RESTORE", "A-SMALL-LOSS", "D-NOTHING"], Names(fleet));
        Assert.Equal(TimeSpan.FromMinutes(45), fleet[2].WaitOnZeroing);
    }

    [Fact]
    public void Ties_are_broken_by_name_then_id_whatever_order_the_fleet_comes_in()
    {
        FixFigures[] fleet =
        [
            Instance(7, "sqlb", "prod", lostMinutes: 5),
            Instance(3, "SQLA", "PROD", lostMinutes: 5),
            Instance(9, "SQLB", "Production", lostMinutes: 5),
            Instance(2, "SQLB", "Production", lostMinutes: 5),
        ];
        var expected = new long[] { 3, 2, 9, 7 };

        foreach (var order in Permutations(fleet))
            Assert.Equal(expected, FixFirst.Rank(order, f => f).Select(f => f.InstanceId));
    }

    [Theory]
    [InlineData("Production", EnvironmentTier.Production)]
    [InlineData(" prod ", EnvironmentTier.Production)]
    [InlineData("DR", EnvironmentTier.Production)]
    [InlineData("UAT", EnvironmentTier.PreProduction)]
    [InlineData("Staging", EnvironmentTier.PreProduction)]
    [InlineData("Development", EnvironmentTier.TestOrDevelopment)]
    [InlineData("test", EnvironmentTier.TestOrDevelopment)]
    [InlineData("Production-like", EnvironmentTier.Other)]
    [InlineData("", EnvironmentTier.Other)]
    [InlineData(null, EnvironmentTier.Other)]
    public void Environments_are_tiered_by_name(string? environment, EnvironmentTier tier) =>
        Assert.Equal(tier, FixFirst.TierOf(environment));

    static IEnumerable<IReadOnlyList<T>> Permutations<T>(IReadOnlyList<T> items) =>
        items.Count <= 1 ? [items] : items.SelectMany((item, i) =>
            Permutations(items.Where((_, j) => j != i).ToList()).Select(rest => (IReadOnlyList<T>)[item, .. rest]));
}
