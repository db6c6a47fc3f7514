using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Client.Tests.Editing;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Client.Tests.Inventory;

public sealed class RegistrationFormTests
{
    [Fact]
    public void A_stored_registration_survives_the_form_unchanged()
    {
        var stored = FakeInventoryEditor.Instance(4, "SQLFIN01") with
        {
            Port = 14330, Owner = "finance-dba", Tags = ["finance", "pci"], Encrypt = EncryptMode.Optional, TrustServerCertificate = true,
            HostNameInCertificate = "alias.corp.example", ServerCertificatePath = "/etc/ifi/a.cer", PollIntervalSeconds = 90,
        };

        var back = RegistrationForm.From(stored).ToRegistration(4, new FormErrors());

        Assert.Equal(stored with { Tags = back!.Tags }, back);
        Assert.Equal(stored.Tags, back.Tags);
    }

    [Fact]
    public void Empty_optional_fields_become_absent_and_an_empty_credential_means_integrated_security()
    {
        var form = new RegistrationForm { Name = " SQL01 ", Host = " sql01 ", Port = " ", InstanceName = "", CredentialName = "  ", PollIntervalSeconds = "" };

        var registration = form.ToRegistration(0, new FormErrors())!;

        Assert.Equal(("SQL01", "sql01"), (registration.Name, registration.Host));
        Assert.Null(registration.Port);
        Assert.Null(registration.InstanceName);
        Assert.Null(registration.CredentialName);
        Assert.Equal(RegistrationForm.DefaultPollIntervalSeconds, registration.PollIntervalSeconds);
    }

    [Theory]
    [InlineData("name", "Form.Name")]
    [InlineData("pollIntervalSeconds", "Form.PollIntervalSeconds")]
    [InlineData("instanceName", "Form.InstanceName")]
    [InlineData("id", "Form.Name")]
    [InlineData(null, "Form.Name")]
    public void The_editors_field_names_map_to_the_forms(string? editorField, string formField) =>
        Assert.Equal(formField, RegistrationForm.FieldOfEditor(editorField));

    [Theory]
    [InlineData(300, "5 min")]
    [InlineData(3600, "1 h")]
    [InlineData(90, "90 s")]
    public void Poll_intervals_read_in_the_largest_whole_unit(int seconds, string expected) =>
        Assert.Equal(expected, InventoryMessages.Interval(seconds));
}
