using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Tests;

/// <summary>A refused probe's advice names the permission that probe needs on that version, as its message does.</summary>
public sealed class ProbeAdviceTests
{
    [Theory]
    [InlineData(ProbeNames.DefaultTrace, 15, "ALTER TRACE", "VIEW SERVER STATE")]
    [InlineData(ProbeNames.GrowthEvents, 16, "ALTER TRACE", "VIEW SERVER")]
    [InlineData(ProbeNames.Services, 16, "VIEW SERVER SECURITY STATE", "VIEW ANY DEFINITION")]
    [InlineData(ProbeNames.ErrorLog, 12, "xp_readerrorlog", "VIEW SERVER STATE")]
    public void Refused_probe_is_told_its_own_permission(string probe, int major, string named, string notNamed)
    {
        var advice = ProbeAdvice.For(new ProbeOutcome(probe, OutcomeClass.PermissionMissing), major);

        Assert.Contains(named, advice, StringComparison.Ordinal);
        Assert.DoesNotContain(notNamed, advice, StringComparison.Ordinal);
    }

    // Issue 29: the error-log grant must create the user in master first, or a real server answers Msg 15151.
    [Fact]
    public void Error_log_grant_creates_the_user_in_master_before_granting()
    {
        var advice = ProbeAdvice.For(new ProbeOutcome(ProbeNames.ErrorLog, OutcomeClass.PermissionMissing), 13, "ifi_collector")!;

        Assert.Contains("USE master; CREATE USER [ifi_collector] FOR LOGIN [ifi_collector]; GRANT EXECUTE ON sys.xp_readerrorlog TO [ifi_collector];", advice, StringComparison.Ordinal);
    }

    // Issue 29: the Browser is named only when the instance had to be found through it.
    [Theory]
    [InlineData("A network-related or instance-specific error occurred while establishing a connection to SQL Server. (provider: TCP Provider, error: 40 - Could not open a connection to SQL Server)", false)]
    [InlineData("A network-related or instance-specific error occurred while establishing a connection to SQL Server. (provider: SQL Network Interfaces, error: 26 - Error Locating Server/Instance Specified)", true)]
    public void Unreachable_advice_names_the_browser_only_when_the_instance_name_was_not_resolved(string message, bool browser)
    {
        var advice = ProbeAdvice.For(new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Unreachable, message), 15)!;

        Assert.Equal(browser, advice.Contains("Browser", StringComparison.Ordinal));
    }

    // Issue 29: 2012 SP3 writes no start-up line; "check the error log for it" was advice that cannot work there.
    [Fact]
    public void Build_too_old_advice_gives_a_check_that_works_on_every_such_build()
    {
        var advice = ProbeAdvice.For(new ProbeOutcome(ProbeNames.Services, OutcomeClass.BuildTooOld), 11)!;

        Assert.Contains("DBCC TRACEON(3004, 3605, -1)", advice, StringComparison.Ordinal);
        Assert.Contains("older builds write no such line", advice, StringComparison.Ordinal);
    }
}
