using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

/// <summary>What the change board reads about the script's refusals: LocalSystem, availability groups, Group Policy.</summary>
public class RemediationChangePlanTests
{
    [Fact]
    public void The_plan_says_what_the_script_refuses_and_lists_every_host_for_the_Group_Policy_check()
    {
        var standalone = Instance(IfiState.Disabled, name: "SQLHOST01") with { EngineServiceAccount = "LocalSystem" };
        var clustered = Instance(IfiState.Disabled, name: "SQLNODE1") with
        {
            IsClustered = true, SqlInstanceName = "SALES", EngineServiceAccount = @"NT Service\MSSQL$SALES", ClusterNodes = ["SQLNODE1", "SQLNODE2"],
        };

        var plan = RemediationChangePlan.Write(RemediationScriptTests.Pack(
            ("sql-system", standalone, PrivilegeAction.Grant), ("fci-sales", clustered, PrivilegeAction.Grant)));
        var system = plan.Split("### sql-system")[1].Split("###")[0];
        var cluster = plan.Split("### fci-sales")[1].Split("##")[0];
        var gpo = plan.Split("## Hosts where a domain Group Policy defines the right")[1];

        Assert.Contains("The script changes and restarts nothing for this instance while its engine starts as LocalSystem", system);
        Assert.Contains("never restarts a primary replica", system);
        Assert.DoesNotContain("primary replica", cluster);
        Assert.Contains("-BackOut restores it", plan);
        Assert.Equal(["SQLHOST01", "SQLNODE1", "SQLNODE2"], gpo.Split('\n').Where(l => l.StartsWith("| SQL", StringComparison.Ordinal)).Select(l => l.Split('|')[1].Trim()));
        Assert.Contains(@"| SQLNODE2 | add NT Service\MSSQL$SALES (fci-sales) | |", gpo);
    }
}
