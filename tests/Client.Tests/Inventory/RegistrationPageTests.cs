using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Client.Tests.Editing;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests.Inventory;

public sealed class RegistrationPageTests : ComponentTest
{
    static readonly InstanceRegistration Stored = FakeInventoryEditor.Instance(4, "SQLFIN01") with
    {
        Port = 14330, Owner = "finance-dba", Tags = ["finance", "pci"], Encrypt = EncryptMode.Strict,
        ServerCertificatePath = "/etc/ifi/sqlfin01.cer", HostNameInCertificate = "sqlfin01.corp.example", PollIntervalSeconds = 600,
    };

    RenderedPage RenderFor(long? id, IInventoryEditor inventory)
    {
        Services.AddEditingBasics();
        Services.AddSingleton(inventory);
        NavigateTo(id is null ? "inventory/new" : $"inventory/{id}");
        return Render<RegistrationPage>(p => p.Add(c => c.Id, id));
    }

    static string? Value(RenderedPage page, string field) => page.Find($"[name='Form.{field}']").GetAttribute("value");

    [Fact]
    public void A_new_registration_starts_from_safe_defaults_and_has_no_password_field()
    {
        var page = RenderFor(null, FakeInventoryEditor.Of());

        Assert.Equal("Register an instance", page.Find("h1").TextContent);
        Assert.Equal("Mandatory", page.Find("select[name='Form.Encrypt'] option[selected]").GetAttribute("value"));
        Assert.Equal("300", Value(page, "PollIntervalSeconds"));
        Assert.Equal("Production", Value(page, "Environment"));
        Assert.Null(page.Find("input[name='Form.TrustServerCertificate']").GetAttribute("checked"));
        Assert.Empty(page.FindAll("input[type=password]"));
        Assert.Contains("Credentials__<name>__Password", page.Find("[data-secret-note]").TextContent, StringComparison.Ordinal);
        Assert.Equal(["save", "test"], page.FindAll("form[data-form=registration] button[name='Form.Command']").Select(b => b.GetAttribute("value")!).ToArray());
    }

    [Fact]
    public void Every_field_has_a_label()
    {
        var page = RenderFor(null, FakeInventoryEditor.Of());

        var fields = page.FindAll("input:not([type=hidden]), select, textarea");
        Assert.Equal(13, fields.Count);
        Assert.All(fields, f => Assert.Single(page.FindAll($"label[for='{f.Id}']")));
    }

    [Fact]
    public void Editing_starts_from_the_stored_registration()
    {
        var page = RenderFor(4, FakeInventoryEditor.Of(Stored));

        Assert.Equal("Edit SQLFIN01", page.Find("h1").TextContent);
        Assert.Equal(("SQLFIN01", "sqlfin01.corp.example", "14330"), (Value(page, "Name"), Value(page, "Host"), Value(page, "Port")));
        Assert.Equal(("finance; pci", "fleet_reader", "600"), (Value(page, "Tags"), Value(page, "CredentialName"), Value(page, "PollIntervalSeconds")));
        Assert.Equal("/etc/ifi/sqlfin01.cer", Value(page, "ServerCertificatePath"));
        Assert.Equal("Strict", page.Find("select[name='Form.Encrypt'] option[selected]").GetAttribute("value"));
        Assert.Contains("Credentials__fleet_reader__Password", page.Find("[data-secret-note]").TextContent, StringComparison.Ordinal);
        Assert.Contains("Credentials__fleet_reader__AllowedHosts", page.Find("[data-secret-note]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void An_earlier_releases_hyphenated_credential_is_kept_and_its_login_named_as_a_shell_exports_it()
    {
        var page = RenderFor(4, FakeInventoryEditor.Of(Stored with { CredentialName = "fleet-reader" }));

        Assert.Equal("fleet-reader", Value(page, "CredentialName"));
        Assert.Contains("Credentials__fleet_reader__Password", page.Find("[data-secret-note]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void An_unknown_id_is_not_found()
    {
        var missing = RenderFor(9, FakeInventoryEditor.Of(Stored));

        Assert.NotNull(missing.Find("[data-not-found]"));
        Assert.Empty(missing.FindAll("form"));
    }

    [Fact]
    public void A_retired_instance_cannot_be_edited()
    {
        var retired = RenderFor(4, FakeInventoryEditor.Of(Stored with { RetiredAt = new DateTimeOffset(2025, 4, 1, 12, 0, 0, TimeSpan.Zero) }));

        Assert.Contains("retired on 2025-04-01 12:00 UTC", retired.Find("[data-retired]").TextContent, StringComparison.Ordinal);
        Assert.Empty(retired.FindAll("form"));
    }

    [Fact]
    public void A_failing_inventory_is_reported_as_an_alert()
    {
        var page = RenderFor(4, FakeInventoryEditor.Failing("store unavailable"));

        AssertReportedWithTraceId(page.Find("[role=alert]").TextContent, "store unavailable");
    }

    [Fact]
    public void Field_errors_are_shown_next_to_their_inputs_with_the_values_as_typed()
    {
        Services.AddEditingBasics();
        var form = new RegistrationForm { Name = "x", Host = "h", Port = "14330x", PollIntervalSeconds = "often", Encrypt = "Always" };
        var errors = new FormErrors();
        Assert.Null(form.ToRegistration(0, errors));
        errors.Add(RegistrationForm.FieldOfEditor("credentialName"), "Letters, digits and _ . - only.");

        var page = Render<RegistrationFields>(p => p.Add(c => c.Form, form).Add(c => c.Errors, errors).Add(c => c.IsNew, true));

        Assert.Contains("port number", page.Find("[data-error-for='Form.Port']").TextContent, StringComparison.Ordinal);
        Assert.Equal("14330x", Value(page, "Port"));
        Assert.Contains("whole number of seconds", page.Find("[data-error-for='Form.PollIntervalSeconds']").TextContent, StringComparison.Ordinal);
        Assert.Contains("Mandatory, Optional or Strict", page.Find("[data-error-for='Form.Encrypt']").TextContent, StringComparison.Ordinal);
        Assert.Equal("Letters, digits and _ . - only.", page.Find("[data-error-for='Form.CredentialName']").TextContent);
        var port = page.Find("input[name='Form.Port']");
        Assert.Equal("true", port.GetAttribute("aria-invalid"));
        Assert.Contains(FieldIds.Error("Form.Port"), port.GetAttribute("aria-describedby"), StringComparison.Ordinal);
        Assert.Null(page.Find("input[name='Form.Host']").GetAttribute("aria-invalid"));
    }
}
