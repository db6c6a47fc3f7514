using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Tests.Inventory;

public sealed class ConnectionTestResultTests : ComponentTest
{
    static InstanceSnapshot Snapshot(params ProbeOutcome[] probes) => new()
    {
        SnapshotId = Guid.NewGuid(), InstanceId = 0, StartedAt = DateTimeOffset.UnixEpoch, FinishedAt = DateTimeOffset.UnixEpoch,
        CollectorName = "test-connection", Probes = probes,
        Identity = new InstanceIdentity { ProductVersion = "16.0.4135.4", Edition = "Enterprise Edition", EngineEdition = 3, ServerName = "SQLFIN01" },
        Services = [new ServiceInfo { ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = @"NT Service\MSSQLSERVER", InstantFileInitializationEnabled = "N", IsEngine = true }],
    };

    RenderedPage RenderResult(InstanceSnapshot snapshot) => Render<ConnectionTestResult>(p => p.Add(c => c.Snapshot, snapshot));

    [Fact]
    public void Each_probe_is_shown_with_its_outcome_message_and_what_to_do()
    {
        var page = RenderResult(Snapshot(
            new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok),
            new ProbeOutcome(ProbeNames.Services, OutcomeClass.PermissionMissing, "VIEW SERVER SECURITY STATE permission was denied", 300),
            new ProbeOutcome(ProbeNames.DefaultTrace, OutcomeClass.TraceDisabled, "The default trace is disabled.")));

        Assert.Equal("failed", page.Find("[data-connection-test]").GetAttribute("data-connection-test"));
        Assert.Equal(["connect", "services", "default-trace"], page.FindAll("tr[data-probe]").Select(r => r.GetAttribute("data-probe")!).ToArray());
        var services = page.Find("tr[data-probe=services]");
        Assert.Equal("PermissionMissing", services.GetAttribute("data-outcome"));
        Assert.Contains("permission was denied (error 300)", services.TextContent, StringComparison.Ordinal);
        Assert.Contains("Grant VIEW SERVER", services.TextContent, StringComparison.Ordinal);
        Assert.Contains("sp_configure 'default trace enabled'", page.Find("tr[data-probe=default-trace]").TextContent, StringComparison.Ordinal);
        Assert.Null(page.Find("tr[data-probe=connect]").GetAttribute("class"));
        Assert.Contains("2 of 3 probes failed", page.Find(".status-line").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void A_test_where_every_probe_succeeded_says_what_it_reached_and_the_ifi_state()
    {
        var page = RenderResult(Snapshot(new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)));

        Assert.Equal("ok", page.Find("[data-connection-test]").GetAttribute("data-connection-test"));
        var summary = page.Find(".status-line").TextContent;
        Assert.Contains("connected", summary, StringComparison.Ordinal);
        Assert.Contains("SQL Server 2022 Enterprise Edition (16.0.4135.4) as SQLFIN01", summary, StringComparison.Ordinal);
        Assert.Contains("IFI disabled", summary, StringComparison.Ordinal);
    }

    [Fact]
    public void An_unreachable_instance_says_how_to_check_the_network()
    {
        var page = RenderResult(Snapshot(new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Unreachable, "A network-related error occurred", 53)) with { Identity = null, Services = [] });

        Assert.Equal("Unreachable", page.Find(".status-line .badge").TextContent);
        Assert.Contains("Test-NetConnection", page.Find("tr[data-probe=connect]").TextContent, StringComparison.Ordinal);
        Assert.Contains("1 of 1 probes failed", page.Find(".status-line").TextContent, StringComparison.Ordinal);
    }
}
