using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Probes;

/// <summary>The collector's probes through real SqlClient against every version profile of the simulator.</summary>
public sealed class VersionProfileProbeTests
{
    [Theory]
    [InlineData("2012-SP4", "11.0.7001.0", true)]
    [InlineData("2014-SP3", "12.0.6024.0", false)]
    [InlineData("2016-SP1", "13.0.4001.0", true)]
    [InlineData("2017", "14.0.3456.2", false)]
    [InlineData("2019", "15.0.4385.2", true)]
    [InlineData("2022", "16.0.4135.4", false)]
    [InlineData("2025", "17.0.1000.7", true)]
    public async Task Builds_with_the_ifi_column_report_the_engine_flag(string profile, string version, bool ifi)
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "sql", Profile = profile, IfiEnabled = ifi, ProcessId = 5150 });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sql"]), CancellationToken.None);

        Assert.All(snapshot.Probes, p => Assert.Equal(OutcomeClass.Ok, p.Outcome));
        Assert.Equal(version, snapshot.Identity!.ProductVersion);
        Assert.Equal(5150, snapshot.EngineService!.ProcessId);
        Assert.Equal(ifi ? IfiState.Enabled : IfiState.Disabled, IfiObservation.From(snapshot).State);
        Assert.Equal(ifi ? "Y" : "N", snapshot.EngineService.InstantFileInitializationEnabled);
        Assert.Contains(snapshot.Services, s => s.ServiceName.StartsWith("SQL Server Agent", StringComparison.Ordinal) && !s.IsEngine);
    }

    // 2014 SP2 and 2016 RTM also lack the column but write the start-up line: see ErrorLogProbeTests.
    [Theory]
    [InlineData("2012-SP3")]
    public async Task Builds_without_the_ifi_column_are_unknown_build_too_old_not_disabled(string profile)
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "old", Profile = profile, IfiEnabled = true });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["old"]), CancellationToken.None);

        var services = Assert.Single(snapshot.Probes, p => p.Probe == ProbeNames.Services);
        Assert.Equal(OutcomeClass.BuildTooOld, services.Outcome);
        Assert.Equal(new IfiObservation(IfiState.Unknown, "build too old"), IfiObservation.From(snapshot));
        Assert.Equal(@"NT Service\MSSQLSERVER", snapshot.EngineService!.ServiceAccount);
        Assert.Null(snapshot.EngineService.InstantFileInitializationEnabled);
    }

    // sp_Blitz check 74 and Microsoft's trace flag list: 1806 disables IFI whatever the account holds; Microsoft's
    // SQL Server engineering blog on IFI (techcommunity ba-p/3199185): so does 1805, for data files.
    [Theory]
    [InlineData(1805)]
    [InlineData(1806)]
    public async Task A_disabling_trace_flag_on_globally_means_data_files_are_zeroed(int flag)
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "tf", Profile = "2019", IfiEnabled = true, GlobalTraceFlags = [3226, flag] });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["tf"]), CancellationToken.None);

        Assert.Equal([flag, 3226], snapshot.GlobalTraceFlags!.Order());
        Assert.Equal("Y", snapshot.EngineService!.InstantFileInitializationEnabled);
        Assert.Equal(IfiState.Disabled, IfiObservation.From(snapshot).State);
        Assert.Contains($"Trace flag {flag} is on globally", snapshot.Probes.Single(p => p.Probe == ProbeNames.TraceFlags).Message, StringComparison.Ordinal);
    }

    // The platform manages IFI, services and traces there: not "trace disabled" with sp_configure advice.
    [Fact]
    public async Task Managed_instance_skips_the_probes_that_cannot_work_there()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "mi", Profile = "managed-instance" });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["mi"]), CancellationToken.None);

        Assert.Equal(OutcomeClass.NotApplicable, snapshot.Probes.Single(p => p.Probe == ProbeNames.Services).Outcome);
        Assert.Equal(OutcomeClass.NotApplicable, snapshot.Probes.Single(p => p.Probe == ProbeNames.DefaultTrace).Outcome);
        Assert.DoesNotContain(snapshot.Probes, p => p.Probe == ProbeNames.ErrorLog || p.Outcome == OutcomeClass.TraceDisabled);
        Assert.All(snapshot.Probes, p => Assert.True(p.Outcome is OutcomeClass.Ok or OutcomeClass.NotApplicable, p.ToString()));
        Assert.DoesNotContain(fleet["mi"].Transcript.TextsOf("batch").Concat(fleet["mi"].Transcript.TextsOf("rpc")),
            sql => sql.Contains("sys.traces", StringComparison.Ordinal) || sql.Contains("dm_server_services", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Azure_sql_database_is_not_applicable()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "paas", Profile = "azure-sql-db" });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["paas"]), CancellationToken.None);

        Assert.Equal(5, snapshot.Identity!.EngineEdition);
        Assert.Equal(OutcomeClass.NotApplicable, snapshot.Probes.Single(p => p.Probe == ProbeNames.Services).Outcome);
        Assert.DoesNotContain(fleet["paas"].Transcript.TextsOf("batch"), sql => sql.Contains("dm_server_services", StringComparison.Ordinal) && !sql.Contains("all_columns", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Linux_host_reports_its_platform_and_local_system_account()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "penguin", Profile = "2022", Platform = "Linux", IfiEnabled = true });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["penguin"]), CancellationToken.None);

        Assert.Equal("Linux", snapshot.Identity!.HostPlatform);
        Assert.Equal("LocalSystem", snapshot.EngineService!.ServiceAccount);
    }

    [Fact]
    public async Task Every_probe_script_sent_is_an_embedded_script_with_the_application_name()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "sql", Profile = "2019" });

        await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["sql"]), CancellationToken.None);

        var sent = fleet["sql"].Transcript.TextsOf("batch").Concat(fleet["sql"].Transcript.TextsOf("rpc")).ToList();
        // All but the legacy services shape, the four error-log readers, the cluster nodes and the two availability
        // group reads (a standalone instance without Always On).
        Assert.Equal(SqlScripts.All.Count() - 8, sent.Count);
        Assert.All(sent, sql => Assert.Contains("IfiDashboard probe", sql, StringComparison.Ordinal));
        Assert.Contains(fleet["sql"].Transcript.TextsOf("login"), l => l.Contains("app=IfiDashboard", StringComparison.Ordinal));
    }
}
