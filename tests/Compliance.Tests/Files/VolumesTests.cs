using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class VolumesTests
{
    [Theory]
    [InlineData(@"D:\Data\Sales.mdf", @"D:\")]
    [InlineData(@"d:\data\sales.mdf", @"D:\")]
    [InlineData(@"L:\Logs\Sales_log.ldf", @"L:\")]
    [InlineData(@"\\filer01\sqldata\Sales.mdf", @"\\filer01\sqldata\")]
    [InlineData("/var/opt/mssql/data/sales.mdf", "/var/opt/mssql")]
    [InlineData("/data1/sql/sales.mdf", "/data1")]
    [InlineData("/mnt/fast/sales.mdf", "/mnt/fast")]
    public void Volume_is_the_drive_share_or_mount_root(string path, string volume) =>
        Assert.Equal(volume, new Volumes().VolumeOf(path));

    [Theory]
    [InlineData(@"D:\Mounts\Data1\Sales.mdf", @"D:\Mounts\Data1\")]
    [InlineData(@"D:\Mounts\Data2\Sales.mdf", @"D:\")]
    [InlineData("/srv/sql/ssd/sales.mdf", "/srv/sql/ssd")]
    [InlineData("/srv/sql/ssd2/sales.mdf", "/srv")]
    public void Configured_mount_roots_win(string path, string volume) =>
        Assert.Equal(volume, new Volumes([@"D:\Mounts\Data1\", "/srv/sql/ssd/"]).VolumeOf(path));

    [Fact]
    public void The_mount_point_the_collector_read_wins_over_the_path_and_the_configured_roots()
    {
        var file = DataFile(path: @"C:\MountPoints\Data1\Sales.mdf") with { Volume = new FileVolumeFacts(@"C:\MountPoints\Data1\", 1, 1) };

        Assert.Equal(new FileVolume(@"C:\MountPoints\Data1\", VolumeSource.VolumeStats), new Volumes([@"C:\MountPoints\"]).Of(file));
        Assert.Equal(new FileVolume(@"C:\", VolumeSource.Path), new Volumes().Of(file with { Volume = null }));
        Assert.Equal(new FileVolume(@"C:\MountPoints\", VolumeSource.ConfiguredMountRoot), new Volumes([@"C:\MountPoints\"]).Of(file with { Volume = null }));
    }
}
