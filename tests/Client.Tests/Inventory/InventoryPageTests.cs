using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Client.Tests.Editing;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests.Inventory;

public sealed class InventoryPageTests : ComponentTest
{
    static readonly InstanceRegistration Finance = FakeInventoryEditor.Instance(1, "SQLFIN01") with
    {
        Port = 14330, Environment = "Production", Owner = "finance-dba", Tags = ["finance", "pci"], Encrypt = EncryptMode.Strict,
        PollIntervalSeconds = 300,
    };

    static readonly InstanceRegistration Reporting = FakeInventoryEditor.Instance(2, "SQLREP01") with
    {
        InstanceName = "REPORTING", CredentialName = null, TrustServerCertificate = true, PollIntervalSeconds = 3600,
    };

    RenderedPage RenderAt(string address, IInventoryEditor inventory)
    {
        Services.AddEditingBasics();
        Services.AddSingleton(inventory);
        NavigateTo(address);
        return Render<InventoryPage>();
    }

    [Fact]
    public void An_empty_inventory_offers_to_register_the_first_instance()
    {
        var page = RenderAt("inventory", FakeInventoryEditor.Of());

        Assert.Equal("inventory/new", page.Find("[data-inventory-empty] a").GetAttribute("href"));
        Assert.Empty(page.FindAll("table"));
    }

    [Fact]
    public void Every_registration_field_is_listed_with_edit_and_retire()
    {
        var page = RenderAt("inventory", FakeInventoryEditor.Of(Reporting, Finance));

        Assert.Equal(["SQLFIN01", "SQLREP01"], page.FindAll("tr[data-instance]").Select(r => r.GetAttribute("data-instance")!).ToArray());
        var finance = page.Find("tr[data-instance=SQLFIN01]").Children.Select(c => c.TextContent.Trim()).ToArray();
        Assert.Equal(["SQLFIN01", "sqlfin01.corp.example", "14330", "Production", "finance-dba", "finance, pci", "Strict", "fleet_reader", "5 min"], finance[..9]);
        var reporting = page.Find("tr[data-instance=SQLREP01]").TextContent;
        Assert.Contains("REPORTING", reporting, StringComparison.Ordinal);
        Assert.Contains("Mandatory, trusts any certificate", reporting, StringComparison.Ordinal);
        Assert.Contains("integrated security", reporting, StringComparison.Ordinal);
        Assert.Contains("1 h", reporting, StringComparison.Ordinal);
        Assert.Equal("inventory/1", page.Find("[data-edit='1']").GetAttribute("href"));
        Assert.Equal("inventory?retire=1", page.Find("[data-retire='1']").GetAttribute("href"));
        Assert.Empty(page.FindAll("[data-confirm-retire]"));
    }

    static InstanceRegistration[] Large() =>
        Enumerable.Range(1, 120).Select(i => FakeInventoryEditor.Instance(i, $"SQL{i:000}")).Reverse().ToArray();

    [Fact]
    public void A_large_inventory_is_paged_by_name()
    {
        var page = RenderAt("inventory", FakeInventoryEditor.Of(Large()));

        Assert.Equal(InventoryPage.PageSize, page.FindAll("tr[data-instance]").Count);
        Assert.Equal("SQL001", page.Find("tr[data-instance]").GetAttribute("data-instance"));
        Assert.Equal("inventory?page=2", page.Find(".pager a[rel=next]").GetAttribute("href"));
    }

    [Fact]
    public void The_last_page_of_the_inventory_holds_the_last_registrations()
    {
        var page = RenderAt("inventory?page=3", FakeInventoryEditor.Of(Large()));

        Assert.Equal(Enumerable.Range(101, 20).Select(i => $"SQL{i:000}"), page.FindAll("tr[data-instance]").Select(r => r.GetAttribute("data-instance")));
        Assert.Contains("Page 3 of 3", page.Find(".pager").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Retire_asks_for_confirmation_with_a_form_for_that_instance_only()
    {
        var page = RenderAt("inventory?retire=2", FakeInventoryEditor.Of(Finance, Reporting));

        var confirm = page.Find("[data-confirm-retire='2']");
        Assert.Contains("Retire SQLREP01?", confirm.TextContent, StringComparison.Ordinal);
        Assert.Equal("2", confirm.QuerySelector("input[name='Retire.Id']")!.GetAttribute("value"));
        Assert.Equal("inventory", confirm.QuerySelector("a.btn")!.GetAttribute("href"));
        Assert.Equal(2, page.FindAll("tr[data-instance]").Count);
    }

    [Fact]
    public void Retiring_an_instance_that_is_not_active_says_so()
    {
        var page = RenderAt("inventory?retire=9", FakeInventoryEditor.Of(Finance));

        Assert.Contains("No active instance has id 9", page.Find("[data-form-message=error]").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("[data-confirm-retire]"));
    }

    [Fact]
    public void A_failing_inventory_is_reported_as_an_alert()
    {
        var page = RenderAt("inventory", FakeInventoryEditor.Failing("database is locked"));

        AssertReportedWithTraceId(page.Find("[role=alert]").TextContent, "database is locked");
    }

    [Theory]
    [InlineData("registered", "Registered SQLFIN01. It is polled at once")]
    [InlineData("updated", "Saved SQLFIN01.")]
    [InlineData("retired", "Retired SQLFIN01. It is no longer polled; its history stays.")]
    public void After_a_change_the_list_says_what_was_done(string done, string expected)
    {
        var page = RenderAt($"inventory?done={done}&id=1", FakeInventoryEditor.Of(Finance));

        Assert.StartsWith(expected, page.Find("[data-form-message=ok]").TextContent, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("inventory?done=registered&id=1&name=Call%20the%20helpdesk", "Registered SQLFIN01.")]
    [InlineData("inventory?done=registered&id=99&name=Call%20the%20helpdesk", "Registered the instance.")]
    [InlineData("inventory?done=imported&count=2&name=Call%20the%20helpdesk", "Registered 2 instances from the file.")]
    public void Words_in_the_address_never_reach_the_message(string address, string expected)
    {
        var page = RenderAt(address, FakeInventoryEditor.Of(Finance));

        var message = page.Find("[data-form-message=ok]").TextContent;
        Assert.StartsWith(expected, message, StringComparison.Ordinal);
        Assert.DoesNotContain("helpdesk", page.Markup, StringComparison.Ordinal);
    }
}
