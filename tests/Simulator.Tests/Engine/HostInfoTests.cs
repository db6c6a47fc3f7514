using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class HostInfoTests
{
    private const string HostQuery =
        "SELECT host_platform, host_distribution, host_release, host_service_pack_level, host_sku, os_language_version " +
        "FROM sys.dm_os_host_info";

    [Theory]
    [InlineData("2017", "Windows", new object?[] { "Windows", "Windows Server 2022 Datacenter", "10.0", "", 8, 1033 })]
    [InlineData("2022", "Windows", new object?[] { "Windows", "Windows Server 2022 Datacenter", "10.0", "", 8, 1033 })]
    [InlineData("2019", "Linux", new object?[] { "Linux", "Ubuntu", "22.04", "", null, 0 })]
    public void Host_info_from_2017_describes_the_platform(string profile, string platform, object?[] expected)
    {
        var result = new EngineHarness(profile, i => i.Platform = platform).Query(HostQuery);

        Assert.Equal(expected, Assert.Single(result.Rows));
        Assert.Equal((SqlType.Int, true), (result.Column("host_sku").Type, result.Column("host_sku").Nullable));
        Assert.Equal((SqlType.NVarChar, 256, false),
            (result.Column("host_platform").Type, result.Column("host_platform").MaxLength, result.Column("host_platform").Nullable));
    }

    [Theory]
    [InlineData("2012-SP4")]
    [InlineData("2016-SP1")]
    [InlineData("azure-sql-db")]
    public void Host_info_before_2017_answers_208(string profile)
    {
        var error = Assert.Single(new EngineHarness(profile).Errors(HostQuery));

        Assert.Equal((208, "Invalid object name 'sys.dm_os_host_info'."), (error.Number, error.Text));
    }
}
