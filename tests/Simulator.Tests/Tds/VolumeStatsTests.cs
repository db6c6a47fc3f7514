using IfiDashboard.Simulator.Scenarios;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// sys.dm_os_volume_stats (its reference page: "Mount point at which the volume is rooted"): a volume mounted in a
/// folder of D: is a volume of its own, so the files of one drive letter can be on several volumes.
/// </summary>
public sealed class VolumeStatsTests
{
    [Fact]
    public async Task A_file_under_a_mount_point_is_on_that_volume_and_another_on_its_drive()
    {
        await using var fleet = TestFleet.StartOne("2019", i =>
        {
            i.MountPoints = [@"D:\Data\Sales"];
            i.Databases =
            [
                new ScenarioDatabase
                {
                    Name = "Sales", Id = 5,
                    Files =
                    [
                        new ScenarioDatabaseFile { FileId = 1, Name = "Sales", PhysicalName = @"D:\Data\Sales\Sales.mdf" },
                        new ScenarioDatabaseFile { FileId = 2, Name = "Sales_log", PhysicalName = @"D:\Log\Sales.ldf", Type = DatabaseFileType.Log },
                    ],
                },
            ];
        });
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);

        var data = await VolumeOfAsync(connection, 5, 1);
        var log = await VolumeOfAsync(connection, 5, 2);

        Assert.Equal((@"D:\Data\Sales\", @"D:\"), (data.MountPoint, log.MountPoint));
        Assert.NotEqual(data.VolumeId, log.VolumeId);
    }

    [Fact]
    public async Task Without_view_server_state_the_volumes_are_refused()
    {
        await using var fleet = TestFleet.Start(new ScenarioInstance
        {
            Name = "sql", Profile = "2019",
            Logins = [new ScenarioLogin { Name = TestFleet.Login, Password = TestFleet.Password, Permissions = ["ALTER TRACE"] }],
        });
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);

        var error = await Assert.ThrowsAsync<SqlException>(() => VolumeOfAsync(connection, 1, 1));

        Assert.Equal(300, error.Number);
    }

    static async Task<(string MountPoint, string VolumeId)> VolumeOfAsync(SqlConnection connection, int databaseId, int fileId)
    {
        await using var command = new SqlCommand(
            "SELECT volume_mount_point, volume_id FROM sys.dm_os_volume_stats(@database_id, @file_id)", connection);
        command.Parameters.AddWithValue("@database_id", databaseId);
        command.Parameters.AddWithValue("@file_id", fileId);
        await using var reader = await command.ExecuteReaderAsync();
        Assert.True(await reader.ReadAsync());
        return (reader.GetString(0), reader.GetString(1));
    }
}
