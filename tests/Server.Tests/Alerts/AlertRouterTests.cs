using IfiDashboard.Server.Alerts;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>Who hears about an instance (docs/alerts.md, "Who receives it").</summary>
public sealed class AlertRouterTests
{
    static readonly InstanceRegistration PciProduction =
        new() { Name = "PAY01", Host = "pay01.corp.example", Environment = "Production", Tags = ["pci"] };

    static AlertOptions Options(params AlertRoute[] routes) => new() { DefaultTo = ["dba@corp.example"], Routes = [.. routes] };

    // Issue 29: a PCI + Production "IFI on" went only to prod-dba (the first match) and never to security.
    [Fact]
    public void Every_matching_route_is_notified()
    {
        var options = Options(
            new AlertRoute { Environment = "Production", To = ["prod-dba@corp.example"] },
            new AlertRoute { Tag = "PCI", To = ["security@corp.example", "prod-dba@corp.example"] },
            new AlertRoute { Environment = "Test", To = ["test-dba@corp.example"] });

        Assert.Equal(["prod-dba@corp.example", "security@corp.example"], AlertRouter.RecipientsFor(PciProduction, options));
    }

    [Fact]
    public void A_matching_route_marked_stop_ends_the_search()
    {
        var options = Options(
            new AlertRoute { Tag = "pci", To = ["security@corp.example"], Stop = true },
            new AlertRoute { Environment = "Production", To = ["prod-dba@corp.example"] });

        Assert.Equal(["security@corp.example"], AlertRouter.RecipientsFor(PciProduction, options));
    }

    [Fact]
    public void A_route_marked_stop_that_does_not_match_stops_nothing()
    {
        var options = Options(
            new AlertRoute { Environment = "Test", To = ["test-dba@corp.example"], Stop = true },
            new AlertRoute { Environment = "Production", To = ["prod-dba@corp.example"] });

        Assert.Equal(["prod-dba@corp.example"], AlertRouter.RecipientsFor(PciProduction, options));
    }

    [Fact]
    public void No_matching_route_goes_to_the_default_recipients()
    {
        var options = Options(new AlertRoute { Environment = "Test", To = ["test-dba@corp.example"] });

        Assert.Equal(["dba@corp.example"], AlertRouter.RecipientsFor(PciProduction, options));
    }
}
