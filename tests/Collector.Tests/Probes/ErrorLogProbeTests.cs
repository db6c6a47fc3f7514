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

    [Fact]
    public async Task Startup_line_in_an_archived_log_after_sp_cycle_errorlog_is_found()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance
        {
            Name = "cycled", Profile = "2016-RTM", IfiEnabled = true, ErrorLogCyclesSinceStartup = 3,
        });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["cycled"]), CancellationToken.None);

        Assert.Equal(IfiState.Enabled, IfiObservation.From(snapshot).State);
        Assert.Contains("archived error log 3", snapshot.Probes.Single(p => p.Probe == ProbeNames.ErrorLog).Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Startup_line_cycled_out_of_every_kept_log_is_not_found_and_the_search_stops()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance
        {
            Name = "cycled", Profile = "2014-SP2", IfiEnabled = true, ErrorLogCyclesSinceStartup = 8, ErrorLogArchives = 6,
        });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["cycled"]), CancellationToken.None);

        Assert.Equal(OutcomeClass.BuildTooOld, snapshot.Probes.Single(p => p.Probe == ProbeNames.ErrorLog).Outcome);
        Assert.Equal(8, fleet["cycled"].Transcript.TextsOf("rpc").Count(t => t.Contains("Database Instant File Initialization", StringComparison.Ordinal)));
    }

    // A localized SQL Server writes its start-up lines in its own language: the English line is missing though the
    // build writes one, and neither the state nor "build too old" may be read into that.
    [Theory]
    [InlineData("2014-SP2", ErrorLogLanguage.German, false)]
    [InlineData("2016-RTM", ErrorLogLanguage.French, false)]
    [InlineData("2016-RTM", ErrorLogLanguage.Japanese, true)]
    [InlineData("2012-SP3", ErrorLogLanguage.German, false)]
    public async Task Error_log_in_another_language_leaves_ifi_unknown_saying_why(string profile, ErrorLogLanguage language, bool ifi)
    {
        await using var fleet = Fleets.Start(new ScenarioInstance
        {
            Name = "localized", Profile = profile, IfiEnabled = ifi, ErrorLogLanguage = language, ErrorLogCyclesSinceStartup = 1,
        });

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["localized"]), CancellationToken.None);

        var errorLog = snapshot.Probes.Single(p => p.Probe == ProbeNames.ErrorLog);
        Assert.Equal(OutcomeClass.ErrorLogNotEnglish, errorLog.Outcome);
        Assert.Contains("Error log 1 ", errorLog.Message, StringComparison.Ordinal);
        Assert.Equal(new IfiObservation(IfiState.Unknown, "error log not in English"), IfiObservation.From(snapshot));
    }

    // Published copies of sp_readerrorlog check securityadmin before 2022 (Msg 15003), whatever Microsoft's page says.
    static ScenarioInstance RefusingErrorLog(params string[] extra) => new()
    {
        Name = "guarded", Profile = "2014-SP2", IfiEnabled = true, ReadErrorLogCheck = ReadErrorLogCheck.SecurityAdminRole,
        Logins = [Fleets.LoginWith(["VIEW SERVER STATE", "VIEW ANY DEFINITION", "ALTER TRACE", .. extra])],
    };

    [Fact]
    public async Task Error_log_refused_with_15003_is_a_missing_permission_naming_the_least_grant()
    {
        await using var fleet = Fleets.Start(RefusingErrorLog());

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["guarded"]), CancellationToken.None);

        var errorLog = snapshot.Probes.Single(p => p.Probe == ProbeNames.ErrorLog);
        Assert.Equal(OutcomeClass.PermissionMissing, errorLog.Outcome);
        Assert.Contains("xp_readerrorlog", errorLog.Message, StringComparison.Ordinal);
        Assert.Equal(new IfiObservation(IfiState.Unknown, IfiObservation.ErrorLogPermissionMissing), IfiObservation.From(snapshot));
    }

    [Fact]
    public async Task Sp_readerrorlog_refused_reads_through_xp_readerrorlog_when_execute_is_granted()
    {
        await using var fleet = Fleets.Start(RefusingErrorLog("EXECUTE ON xp_readerrorlog"));

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["guarded"]), CancellationToken.None);

        Assert.Equal(OutcomeClass.Ok, snapshot.Probes.Single(p => p.Probe == ProbeNames.ErrorLog).Outcome);
        Assert.Equal(IfiState.Enabled, IfiObservation.From(snapshot).State);
    }

    [Theory]
    [InlineData("2026-11-01 06:00:01.23 Server      Database Instant File Initialization: enabled. For security and performance considerations see the topic 'Database Instant File Initialization' in SQL Server Books Online. This is an informational message only. No user action is required.", "enabled")]
    [InlineData("Database Instant File Initialization: disabled. For security and performance considerations see the topic", "disabled")]
    [InlineData("Zeroing D:\\Data\\x.mdf from page 1 to 8192", null)]
    public void Startup_line_parses_enabled_or_disabled(string line, string? expected) =>
        Assert.Equal(expected, ErrorLogProbe.Parse(line));
}
