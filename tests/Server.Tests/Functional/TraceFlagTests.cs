using System.Globalization;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Trace flags 1805 and 1806 through the real collector over TCP: the service holds the right (the DMV says 'Y'), yet data files
/// are zeroed. The instance is non-compliant where IFI is required, and the advice is to remove the flag, not to grant
/// a right it already has.
/// </summary>
public sealed class TraceFlagTests
{
    // 1806: Microsoft's trace flag list, sp_Blitz check 74. 1805: Microsoft's SQL Server engineering blog on IFI
    // (techcommunity ba-p/3199185), "disables instant file initialization for data files".
    [Theory]
    [InlineData(1805)]
    [InlineData(1806)]
    public async Task A_trace_flag_that_disables_ifi_makes_it_off_and_the_advice_removes_the_flag(int flag)
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = $"tf{flag}", Profile = "2019", IfiEnabled = true, GlobalTraceFlags = [flag] });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var instance = fleet.Instances.Single();

        Assert.Equal(ComplianceStatus.NonCompliant, instance.Compliance.Status);
        Assert.Equal(RemediationKind.RemoveTraceFlag, instance.Remediation.Kind);
        Assert.Contains(flag.ToString(CultureInfo.InvariantCulture), instance.Remediation.Title, StringComparison.Ordinal);
        Assert.DoesNotContain(instance.Remediation.Steps, s => s.Contains("secpol.msc", StringComparison.Ordinal));
    }
}
