using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Probes;

/// <summary>The start-up error-log line as the second source of the IFI state on builds without the DMV column.</summary>
public sealed class ErrorLogProbeTests
{
    [Theory]
    [InlineData("2014-SP2", true, IfiState.Enabled)]
    [InlineData("2016-RTM", false, IfiState.Disabled)]
    public async Task Build_without_the_column_reads_ifi_from_the_startup_line(string profile, bool ifi, IfiState expected)
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "old", Profile = profile, IfiEnabled = ifi });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["old"]), CancellationToken.None);

        Assert.Equal(OutcomeClass.BuildTooOld, snapshot.Probes.Single(p => p.Probe == ProbeNames.Services).Outcome);
        Assert.Equal(OutcomeClass.Ok, snapshot.Probes.Single(p => p.Probe == ProbeNames.ErrorLog).Outcome);
        Assert.Equal(expected, IfiObservation.From(snapshot).State);
    }

    [Fact]
    public async Task Build_2012_sp3_has_no_startup_line_and_stays_unknown()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "older", Profile = "2012-SP3", IfiEnabled = true });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["older"]), CancellationToken.None);

        Assert.Equal(new IfiObservation(IfiState.Unknown, "build too old"), IfiObservation.From(snapshot));
    }

    [Fact]
    public async Task Patched_build_never_reads_the_error_log()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "new", Profile = "2019", IfiEnabled = true });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["new"]), CancellationToken.None);

        Assert.DoesNotContain(snapshot.Probes, p => p.Probe == ProbeNames.ErrorLog);
        Assert.DoesNotContain(fleet["new"].Transcript.TextsOf("batch"), sql => sql.Contains("sp_readerrorlog", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("2026-11-01 06:00:01.23 Server      Database Instant File Initialization: enabled. For security and performance considerations see the topic 'Database Instant File Initialization' in SQL Server Books Online. This is an informational message only. No user action is required.", "enabled")]
    [InlineData("Database Instant File Initialization: disabled. For security and performance considerations see the topic", "disabled")]
    [InlineData("Zeroing D:\\Data\\x.mdf from page 1 to 8192", null)]
    public void Startup_line_parses_enabled_or_disabled(string line, string? expected) =>
        Assert.Equal(expected, ErrorLogProbe.Parse(line));
}
