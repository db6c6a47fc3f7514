using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Trace flag 1806 through the real collector over TCP: the service holds the right (the DMV says 'Y'), yet data files
/// are zeroed. The instance is non-compliant where IFI is required, and the advice is to remove the flag, not to grant
/// a right it already has.
/// </summary>
public sealed class TraceFlagTests
{
    [Fact]
    public async Task Trace_flag_1806_makes_ifi_off_and_the_advice_removes_the_flag()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "tf1806", Profile = "2019", IfiEnabled = true, GlobalTraceFlags = [1806] });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var instance = fleet.Instances.Single();

        Assert.Equal(ComplianceStatus.NonCompliant, instance.Compliance.Status);
        Assert.Equal(RemediationKind.RemoveTraceFlag, instance.Remediation.Kind);
        Assert.Contains("1806", instance.Remediation.Title, StringComparison.Ordinal);
        Assert.DoesNotContain(instance.Remediation.Steps, s => s.Contains("secpol.msc", StringComparison.Ordinal));
    }
}
