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
}
