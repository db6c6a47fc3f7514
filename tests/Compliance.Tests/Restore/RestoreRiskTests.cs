using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;
using IfiDashboard.Compliance.Restore;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class RestoreRiskTests
{
    static readonly ZeroingRateOptions Options = new(); // 100 MB/s assumed
    static readonly long TwoHundredGbPages = 200 * 1024 * 128L;

    static InstanceRestoreRisk Risk(InstanceFacts instance, IEnumerable<DatabaseFileFacts> files,
        IEnumerable<DatabaseEncryptionFacts>? encryption = null) =>
        RestoreRiskCalculator.ForInstance(Set(instance, files, encryption: encryption), Options);

    [Fact]
    public void Restore_without_IFI_spends_data_bytes_over_rate_zeroing()
    {
        var risk = Risk(Instance(IfiState.Disabled, major: 15), [DataFile(sizePages: TwoHundredGbPages)]);

        var sales = risk.Databases.Single();
        Assert.Equal(200 * GB, sales.DataBytes);
        Assert.Equal(2048, sales.ExtraSeconds, precision: 6);
        Assert.Equal(34.133, sales.ExtraMinutes, precision: 3);
        Assert.True(sales.RateAssumed);
    }

    [Fact]
    public void Restore_with_IFI_spends_no_extra_time_on_data_files()
    {
        var risk = Risk(Instance(IfiState.Enabled, major: 15), [DataFile(sizePages: TwoHundredGbPages), LogFile(sizePages: PagesOfMB(10240))]);

        var sales = risk.Databases.Single();
        Assert.Equal(0, sales.ExtraSeconds);
        Assert.Equal(0, sales.ZeroedDataBytes);
        Assert.Equal(102.4, sales.LogZeroingSeconds, precision: 6);
    }

    [Fact]
    public void TDE_database_restore_is_zeroed_even_on_an_instance_with_IFI()
    {
        var risk = Risk(Instance(IfiState.Enabled), [DataFile(sizePages: PagesOfMB(51200))],
            encryption: [new DatabaseEncryptionFacts(5, 3)]);

        var sales = risk.Databases.Single();
        Assert.Equal(512, sales.ExtraSeconds, precision: 6);
        Assert.True(sales.TdeEncrypted);
    }

    [Fact]
    public void Unknown_IFI_is_counted_as_zeroed_and_flagged()
    {
        var sales = Risk(Instance(IfiState.Unknown), [DataFile(sizePages: PagesOfMB(1000))]).Databases.Single();

        Assert.Equal(10, sales.ExtraSeconds, precision: 6);
        Assert.True(sales.IfiUnknown);
    }

    [Fact]
    public void Files_on_separate_volumes_are_zeroed_side_by_side()
    {
        // 1.6 TB on three volumes at 100 MB/s: one after another would be 16,384 s (4 h 33 min); the restore
        // initialises each volume on its own thread, so it lasts as long as D:'s 800 GB, beside the log on L:.
        var risk = Risk(Instance(IfiState.Disabled, major: 15),
        [
            DataFile(5, "Sales", "Sales_D", sizePages: PagesOfMB(800 * 1024), path: @"D:\Data\Sales.mdf"),
            DataFile(5, "Sales", "Sales_E", sizePages: PagesOfMB(500 * 1024), path: @"E:\Data\Sales_E.ndf"),
            DataFile(5, "Sales", "Sales_F", sizePages: PagesOfMB(300 * 1024), path: @"F:\Data\Sales_F.ndf"),
            LogFile(5, "Sales", "Sales_log", sizePages: PagesOfMB(20 * 1024), path: @"L:\Logs\Sales_log.ldf"),
        ]);

        var sales = risk.Databases.Single();
        Assert.Equal(1600 * GB, sales.ZeroedDataBytes);
        Assert.Equal(204.8, sales.LogZeroingSeconds, precision: 6);
        Assert.Equal(8192 - 204.8, sales.ExtraSeconds, precision: 6);
        Assert.Equal(3, sales.ZeroedVolumes);
    }

    [Fact]
    public void Files_on_one_volume_are_zeroed_one_after_another()
    {
        var risk = Risk(Instance(IfiState.Disabled, major: 15),
        [
            DataFile(5, "Sales", "Sales", sizePages: PagesOfMB(100 * 1024), path: @"D:\Data\Sales.mdf"),
            DataFile(5, "Sales", "Sales_2", sizePages: PagesOfMB(50 * 1024), path: @"D:\Data\Sales_2.ndf"),
            LogFile(5, "Sales", "Sales_log", sizePages: PagesOfMB(10 * 1024), path: @"D:\Logs\Sales_log.ldf"),
        ]);

        var sales = risk.Databases.Single();
        // 160 GB on D: takes 1,638.4 s; the log's 102.4 s of it is spent with or without IFI.
        Assert.Equal(1536, sales.ExtraSeconds, precision: 6);
        Assert.Equal(102.4, sales.LogZeroingSeconds, precision: 6);
        Assert.Equal(1, sales.ZeroedVolumes);
    }

    [Fact]
    public void A_file_under_an_ntfs_mount_point_is_zeroed_on_its_own_volume()
    {
        // Both on C: by their paths, but sys.dm_os_volume_stats put the first on the volume mounted at
        // C:\MountPoints\Data1\: 100 GB and 50 GB zeroed side by side, 1,024 s, not 1,536 s one after another.
        var mounted = new FileVolumeFacts(@"C:\MountPoints\Data1\", 2048 * GB, 1024 * GB);
        var system = new FileVolumeFacts(@"C:\", 500 * GB, 20 * GB);
        var risk = Risk(Instance(IfiState.Disabled, major: 15),
        [
            DataFile(5, "Sales", "Sales", sizePages: PagesOfMB(100 * 1024), path: @"C:\MountPoints\Data1\Sales.mdf") with { Volume = mounted },
            DataFile(5, "Sales", "Sales_2", sizePages: PagesOfMB(50 * 1024), path: @"C:\Data\Sales_2.ndf") with { Volume = system },
        ]);

        var sales = risk.Databases.Single();
        Assert.Equal(2, sales.ZeroedVolumes);
        Assert.Equal(1024, sales.ExtraSeconds, precision: 6);
        Assert.Equal([(@"C:\", VolumeSource.VolumeStats, 1), (@"C:\MountPoints\Data1\", VolumeSource.VolumeStats, 1)],
            risk.Volumes.Select(v => (v.Name, v.Source, v.DataFiles)));
        Assert.Equal(1024 * GB, risk.Volumes.Single(v => v.Name == @"C:\MountPoints\Data1\").Read?.AvailableBytes);
    }

    [Fact]
    public void Without_the_volumes_read_a_mount_point_counts_as_its_drive_and_says_so()
    {
        var risk = Risk(Instance(IfiState.Disabled, major: 15),
        [
            DataFile(5, "Sales", "Sales", sizePages: PagesOfMB(100 * 1024), path: @"C:\MountPoints\Data1\Sales.mdf"),
            DataFile(5, "Sales", "Sales_2", sizePages: PagesOfMB(50 * 1024), path: @"C:\Data\Sales_2.ndf"),
        ]);

        Assert.Equal(1536, risk.Databases.Single().ExtraSeconds, precision: 6);
        var volume = Assert.Single(risk.Volumes);
        Assert.Equal((@"C:\", VolumeSource.Path, (FileVolumeFacts?)null), (volume.Name, volume.Source, volume.Read));
    }

    [Fact]
    public void A_growth_larger_than_its_volumes_free_space_is_flagged()
    {
        var stall = Risk(Instance(IfiState.Disabled, major: 15),
            [DataFile(growth: PagesOfMB(1024)) with { Volume = new FileVolumeFacts(@"D:\", 100 * GB, 512L * 1024 * 1024) }])
            .GrowthStalls.Single();

        Assert.True(stall.OutgrowsVolume);
    }

    [Fact]
    public void A_data_file_zeroed_beside_a_longer_log_zeroing_costs_no_extra_time()
    {
        var sales = Risk(Instance(IfiState.Disabled, major: 15),
        [
            DataFile(sizePages: PagesOfMB(1024), path: @"D:\Data\Sales.mdf"),
            LogFile(sizePages: PagesOfMB(10 * 1024), path: @"L:\Logs\Sales_log.ldf"),
        ]).Databases.Single();

        Assert.Equal(GB, sales.ZeroedDataBytes);
        Assert.Equal(0, sales.ExtraSeconds, precision: 6);
        Assert.Equal(102.4, sales.LogZeroingSeconds, precision: 6);
    }

    [Fact]
    public void Restore_time_uses_the_instances_own_measured_rate()
    {
        var facts = Set(Instance(IfiState.Disabled), [DataFile(sizePages: TwoHundredGbPages)],
            [DataGrowth(Now.AddDays(-1), PagesOfMB(256), 1_280_000)]); // 200 MB/s

        var sales = RestoreRiskCalculator.ForInstance(facts, Options).Databases.Single();

        Assert.Equal(1024, sales.ExtraSeconds, precision: 6);
        Assert.False(sales.RateAssumed);
    }

    public static TheoryData<long, long, bool, IfiState, long?, double?> Stalls => new()
    {
        // size, growth, percent?, instance IFI -> increment bytes, stall seconds at 100 MB/s
        { PagesOfMB(204800), 10, true, IfiState.Disabled, 20480 * MB, 204.8 },
        { PagesOfMB(204800), PagesOfMB(1024), false, IfiState.Disabled, 1024 * MB, 10.24 },
        { PagesOfMB(204800), PagesOfMB(1024), false, IfiState.Enabled, 1024 * MB, 0 },
        { PagesOfMB(204800), 0, false, IfiState.Disabled, null, null },
        { 1001, 10, true, IfiState.Disabled, 100 * 8192, 100 * 8192 / (100.0 * MB) },
    };

    [Theory]
    [MemberData(nameof(Stalls))]
    public void Next_autogrowth_stall_is_increment_over_rate(long sizePages, long growth, bool percent, IfiState ifi,
        long? incrementBytes, double? stallSeconds)
    {
        var stall = Risk(Instance(ifi), [DataFile(sizePages: sizePages, growth: growth, percent: percent)]).GrowthStalls.Single();

        Assert.Equal(incrementBytes, stall.IncrementBytes);
        if (stallSeconds is null)
            Assert.Null(stall.StallSeconds);
        else
            Assert.Equal(stallSeconds.Value, stall.StallSeconds!.Value, precision: 6);
    }

    [Fact]
    public void Growth_stalls_are_listed_for_data_files_only() =>
        Assert.Equal(["Sales"], Risk(Instance(IfiState.Disabled), [DataFile(), LogFile()]).GrowthStalls.Select(s => s.LogicalName));

    [Fact]
    public void Fleet_top_lists_put_the_longest_first_and_skip_zero()
    {
        var slow = Risk(Instance(IfiState.Disabled, id: 1, name: "A"),
            [DataFile(5, "Big", "Big", sizePages: PagesOfMB(100_000)), DataFile(6, "Small", "Small", sizePages: PagesOfMB(1_000))]);
        var fast = Risk(Instance(IfiState.Enabled, id: 2, name: "B"), [DataFile(5, "Huge", "Huge", sizePages: PagesOfMB(900_000))]);
        var all = slow.Databases.Concat(fast.Databases);

        var top = RestoreRiskRanking.TopByRestoreTime(all, 5);

        Assert.Equal(["Big", "Small"], top.Select(d => d.DatabaseName));
        Assert.Equal(["Big"], RestoreRiskRanking.TopByRestoreTime(all, 1).Select(d => d.DatabaseName));
        Assert.Equal(["Big", "Small"],
            RestoreRiskRanking.TopByGrowthStall(slow.GrowthStalls.Concat(fast.GrowthStalls), 5).Select(s => s.DatabaseName));
    }
}
