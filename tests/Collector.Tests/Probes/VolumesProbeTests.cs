using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Probes;

/// <summary>
/// Issue 29: NTFS mount points. The volume each file lives on, read through SqlClient from the simulator's
/// sys.dm_os_volume_stats, so a volume mounted in a folder of C: is not counted as C:.
/// </summary>
public sealed class VolumesProbeTests
{
    static ScenarioInstance MountedServer(string profile = "2019") => new()
    {
        Name = "mounted",
        Profile = profile,
        MountPoints = [@"C:\MountPoints\Data1"],
        Databases =
        [
            new ScenarioDatabase
            {
                Name = "Sales", Id = 5,
                Files =
                [
                    new ScenarioDatabaseFile { FileId = 1, Name = "Sales", PhysicalName = @"C:\MountPoints\Data1\Sales.mdf", SizePages = 131_072 },
                    new ScenarioDatabaseFile { FileId = 3, Name = "Sales2", PhysicalName = @"C:\MountPoints\Data1\Sales2.ndf", SizePages = 131_072 },
                    new ScenarioDatabaseFile { FileId = 2, Name = "Sales_log", PhysicalName = @"C:\Logs\Sales.ldf", Type = DatabaseFileType.Log },
                ],
            },
        ],
    };

    [Fact]
    public async Task A_file_under_a_mount_point_is_on_that_volume_and_the_others_on_their_drive()
    {
        await using var fleet = Fleets.Start(MountedServer());

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["mounted"]), CancellationToken.None);

        var sales = snapshot.Files.Where(f => f.DatabaseName == "Sales").ToDictionary(f => f.LogicalName, f => f.Volume);
        Assert.Equal(@"C:\MountPoints\Data1\", sales["Sales"]?.MountPoint);
        Assert.Equal(@"C:\MountPoints\Data1\", sales["Sales2"]?.MountPoint);
        Assert.Equal(@"C:\", sales["Sales_log"]?.MountPoint);
        Assert.NotEqual(sales["Sales"]!.VolumeId, sales["Sales_log"]!.VolumeId);
        Assert.True(sales["Sales"]!.TotalBytes > 0 && sales["Sales"]!.AvailableBytes > 0);
        Assert.All(snapshot.Files, f => Assert.NotNull(f.Volume));
        var probe = snapshot.Probes.Single(p => p.Probe == ProbeNames.Volumes);
        Assert.Equal(OutcomeClass.Ok, probe.Outcome);
        Assert.Contains(@"C:\MountPoints\Data1\", probe.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task One_call_per_folder_not_per_file()
    {
        await using var fleet = Fleets.Start(MountedServer());

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["mounted"]), CancellationToken.None);

        var folders = snapshot.Files.Select(f => f.PhysicalName[..(f.PhysicalName.LastIndexOf('\\') + 1)]).Distinct().Count();
        var calls = fleet["mounted"].Transcript.TextsOf("rpc").Count(sql => sql.Contains("dm_os_volume_stats", StringComparison.Ordinal));
        Assert.Equal(folders, calls);
        Assert.True(calls < snapshot.Files.Count, $"{calls} calls for {snapshot.Files.Count} files");
    }

    // Least privilege: the function needs VIEW SERVER STATE (VIEW SERVER PERFORMANCE STATE from 2022). Refused, the
    // files are still read, without volumes, and the refusal names the grant for the build.
    [Theory]
    [InlineData("2019", "CONNECT SQL", "VIEW SERVER STATE")]
    [InlineData("2022", "VIEW SERVER SECURITY STATE", "VIEW SERVER PERFORMANCE STATE")]
    public async Task Refused_the_files_keep_no_volume_and_the_grant_is_named(string profile, string granted, string missing)
    {
        var instance = MountedServer(profile);
        instance.Logins = [Fleets.LoginWith(granted, "VIEW ANY DEFINITION", "ALTER TRACE")];
        await using var fleet = Fleets.Start(instance);

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["mounted"]), CancellationToken.None);

        Assert.Equal(OutcomeClass.Ok, snapshot.Probes.Single(p => p.Probe == ProbeNames.Files).Outcome);
        Assert.All(snapshot.Files, f => Assert.Null(f.Volume));
        var probe = snapshot.Probes.Single(p => p.Probe == ProbeNames.Volumes);
        Assert.Equal(OutcomeClass.PermissionMissing, probe.Outcome);
        Assert.Contains(missing, probe.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Sql_server_on_linux_reports_its_mounts()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance
        {
            Name = "linux", Profile = "2019", Platform = "Linux", MountPoints = ["/data1"],
            Databases =
            [
                new ScenarioDatabase
                {
                    Name = "Sales", Id = 5,
                    Files = [new ScenarioDatabaseFile { FileId = 1, Name = "Sales", PhysicalName = "/data1/sql/sales.mdf" },
                             new ScenarioDatabaseFile { FileId = 2, Name = "Sales_log", PhysicalName = "/var/opt/mssql/data/sales.ldf", Type = DatabaseFileType.Log }],
                },
            ],
        });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["linux"]), CancellationToken.None);

        var sales = snapshot.Files.Where(f => f.DatabaseName == "Sales").ToDictionary(f => f.LogicalName, f => f.Volume?.MountPoint);
        Assert.Equal(("/data1/", "/"), (sales["Sales"], sales["Sales_log"]));
    }
}
