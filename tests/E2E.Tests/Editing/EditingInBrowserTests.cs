using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.DependencyInjection;
using OpenQA.Selenium;

namespace IfiDashboard.E2E.Tests.Editing;

/// <summary>
/// The policy and inventory pages in headless Chromium, by keyboard and plain form posts (static SSR forms):
/// an instance registered in the form is polled and shows a status, a waiver granted in the form makes it Waived, and
/// revoking it turns it back.
/// </summary>
[Collection(EditingCollection.Name)]
public sealed class EditingInBrowserTests(EditingFixture demo)
{
    const string NewName = "E2E-REGISTERED";

    Browser Browser => demo.Browser;
    string Url(string path) => demo.Server.BaseUrl + path;
    IWebElement Field(string name) => Browser.Driver.FindElement(By.Name(name));

    void Type(string name, string text)
    {
        var field = Field(name);
        field.Clear();
        field.SendKeys(text);
    }

    /// <summary>A demo instance whose IFI is off where it is required, and not waived: a copy of it is non-compliant too.</summary>
    async Task<InstanceRegistration> NonCompliantTemplateAsync()
    {
        var fleet = await demo.Server.Services.GetRequiredService<IFleetAssessments>().GetAsync(CancellationToken.None);
        return fleet.Instances.First(i => i.Compliance is { Status: ComplianceStatus.NonCompliant, Waiver: null, Policy.Desired: DesiredState.Required }
            && i.Compliance.Observed == Shared.Snapshots.IfiState.Disabled).Registration;
    }

    /// <summary>Polls until the instance has been polled once, as the embedded collector would within its interval.</summary>
    async Task PollUntilPolledAsync(string name)
    {
        var collector = demo.Server.Services.GetRequiredService<CollectorService>();
        var deadline = DateTime.UtcNow.AddSeconds(90);
        while (DateTime.UtcNow < deadline)
        {
            await collector.PollDueOnceAsync(CancellationToken.None);
            var fleet = await demo.Server.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
            if (fleet.Instances.FirstOrDefault(i => i.Registration.Name == name)?.State.LastOutcome is not null) return;
            await Task.Delay(200);
        }
        throw new TimeoutException($"{name} was not polled within 90 s");
    }

    string? GridStatus(string name)
    {
        Browser.Open(Url($"instances?q={Uri.EscapeDataString(name)}"));
        return Browser.Attribute($"table[data-grid=instances] a[data-instance='{name}']", "data-status");
    }

    [Fact]
    public async Task An_instance_registered_in_the_form_is_polled_and_a_waiver_granted_then_revoked_changes_its_status()
    {
        var template = await NonCompliantTemplateAsync();
        // One server is registered once: the demo's registration of it goes first, as when a DBA re-registers a server.
        await demo.Server.Services.GetRequiredService<InstanceInventory>().RetireAsync(template.Id, CancellationToken.None);

        Browser.Open(Url("inventory/new"));
        Browser.WaitFor("form[data-form=registration]");
        Type("Form.Name", NewName);
        Type("Form.Host", template.Host);
        Type("Form.Port", template.Port!.Value.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Type("Form.Environment", template.Environment);
        Type("Form.Tags", string.Join("; ", template.Tags));
        Type("Form.CredentialName", template.CredentialName!);
        Field("Form.Encrypt").SendKeys(template.Encrypt.ToString());
        if (template.TrustServerCertificate) Field("Form.TrustServerCertificate").SendKeys(Keys.Space);
        Browser.Driver.FindElement(By.CssSelector("[data-action=test-connection]")).Click();
        var test = Browser.WaitFor("[data-connection-test]", 40);
        Assert.True(test.GetAttribute("data-connection-test") == "ok", $"Test connection: {test.Text}");
        Assert.Equal(NewName, Field("Form.Name").GetAttribute("value"));
        Browser.Screenshot("inventory-test-connection");

        Browser.Driver.FindElement(By.CssSelector("[data-action=save]")).Click();
        Browser.WaitUntil(d => d.Url.Contains("done=registered", StringComparison.Ordinal));
        Assert.NotNull(Browser.WaitFor($"tr[data-instance='{NewName}']"));
        Browser.Screenshot("inventory");

        await PollUntilPolledAsync(NewName);
        Assert.Equal("NonCompliant", GridStatus(NewName));

        Browser.Open(Url("policy"));
        Browser.WaitFor("form[data-form=grant]");
        // The find box narrows the fleet to the one instance, which is then chosen for the waiver.
        Type("find", NewName);
        Browser.Driver.FindElement(By.CssSelector("form[data-form=find-instance] button")).Click();
        Browser.WaitUntil(_ => Browser.Attribute("[data-instances-found]", "data-instances-found") == "1");
        Assert.StartsWith(NewName, Browser.Text("select[name='Grant.InstanceId'] option:checked"), StringComparison.Ordinal);
        Type("Grant.Reason", "Vendor support window CHG-2024 (browser test)");
        Browser.Driver.FindElement(By.CssSelector("[data-action=grant]")).Click();
        Browser.WaitUntil(d => d.Url.Contains("done=granted", StringComparison.Ordinal));
        Assert.Contains(NewName, Browser.Text("[data-form-message=ok]"), StringComparison.Ordinal);
        Assert.Equal("Demo: signed in as demo administrator", Browser.Text("[data-demo-banner]"));
        await demo.Server.AssessAsync();
        Assert.Equal("Waived", GridStatus(NewName));

        Browser.Open(Url("policy"));
        var row = $"tr[data-waiver][data-instance='{NewName}']";
        Assert.Equal("Waived", Browser.Attribute($"{row} [data-current-status]", "data-current-status"));
        Browser.Screenshot("policy");
        Browser.Click($"{row} [data-revoke]");
        Assert.Contains(NewName, Browser.Text("[data-confirm-revoke] h3"), StringComparison.Ordinal); // asks first
        Assert.Equal("Waived", Browser.Attribute($"{row} [data-current-status]", "data-current-status"));
        Browser.Screenshot("policy-confirm-revoke");
        Browser.Click("[data-action=confirm-revoke]");
        Browser.WaitUntil(d => d.Url.Contains("done=revoked", StringComparison.Ordinal));
        Assert.Empty(Browser.All($"tr[data-waiver][data-instance='{NewName}']"));
        await demo.Server.AssessAsync();
        Assert.Equal("NonCompliant", GridStatus(NewName));
    }

    [Fact]
    public void A_bad_port_is_explained_next_to_the_field_and_the_typed_values_stay()
    {
        Browser.Open(Url("inventory/new"));
        Browser.WaitFor("form[data-form=registration]");
        Type("Form.Name", "E2E-BAD-PORT");
        Type("Form.Host", "127.0.0.1");
        Type("Form.Port", "99999");
        Field("Form.Port").SendKeys(Keys.Enter);

        var error = Browser.WaitFor("[data-error-for='Form.Port']");
        Assert.Contains("1 to 65535", error.Text, StringComparison.Ordinal);
        Assert.Equal("99999", Field("Form.Port").GetAttribute("value"));
        Assert.Equal("E2E-BAD-PORT", Field("Form.Name").GetAttribute("value"));
        Browser.Screenshot("inventory-field-error");
    }

    [Fact]
    public void Retiring_asks_first_and_cancel_keeps_the_instance()
    {
        Browser.Open(Url("inventory"));
        var retire = Browser.WaitFor("tr[data-instance] [data-retire]");
        var id = retire.GetAttribute("data-retire");
        retire.Click();

        var confirm = Browser.WaitFor($"[data-confirm-retire='{id}']");
        Browser.Screenshot("inventory-retire-confirm");
        confirm.FindElement(By.LinkText("Cancel")).Click();
        // Enhanced navigation: the address changes before the next page is merged in, so wait for both.
        Browser.WaitUntil(d => !d.Url.Contains("retire=", StringComparison.Ordinal) && Browser.All("[data-confirm-retire]").Count == 0);

        Assert.NotEmpty(Browser.All($"[data-retire='{id}']"));
    }

    [Fact]
    public async Task A_csv_file_chosen_in_the_browser_is_previewed_then_registered()
    {
        try
        {
            ImportInTheBrowser();
        }
        finally
        {
            // The demo is shared by this collection's tests: leave its fleet as it was.
            var inventory = demo.Server.Services.GetRequiredService<InstanceInventory>();
            foreach (var imported in (await inventory.ListActiveAsync(CancellationToken.None)).Where(i => i.Name.StartsWith("E2E-IMPORT-", StringComparison.Ordinal)))
                await inventory.RetireAsync(imported.Id, CancellationToken.None);
        }
    }

    void ImportInTheBrowser()
    {
        var file = Path.Combine(Directory.CreateTempSubdirectory("ifi-import-").FullName, "instances.csv");
        // Loopback ports nothing listens on: the demo's collector polls what is registered, and finds these refused at once.
        File.WriteAllText(file, "name,host,port,environment,tags,credentialName\r\n" +
                                "E2E-IMPORT-01,127.0.0.1,1,Test,e2e;import,\r\n" +
                                "E2E-IMPORT-02,127.0.0.1,2,Test,,\r\n");

        Browser.Open(Url("inventory"));
        Browser.Click("[data-action=import]");
        Browser.WaitFor("form[data-form=import-file]");
        Field("file").SendKeys(file);
        Browser.Click("[data-action=preview-import]");
        Browser.WaitFor("[data-import-preview]");
        var outcomes = Browser.Attributes("[data-import-preview] tr[data-line]", "data-outcome");
        var violations = Browser.AccessibilityViolations();
        Browser.Screenshot("inventory-import-preview");
        Browser.Click("[data-action=confirm-import]");
        Browser.WaitFor("tr[data-instance='E2E-IMPORT-02']");

        Assert.Equal(["registers", "registers"], outcomes);
        Assert.Empty(violations);
        Assert.Contains("Registered 2 instances from the file", Browser.Text("[data-form-message]"), StringComparison.Ordinal);
        Assert.Equal("e2e, import", Browser.Text("tr[data-instance='E2E-IMPORT-01'] .tags"));
    }

    [Fact]
    public void The_editing_pages_read_in_the_dark_theme()
    {
        Browser.Open(Url("policy"));
        Browser.Driver.Manage().Cookies.AddCookie(new Cookie(Client.Components.Theme.CookieName, "dark"));
        try
        {
            foreach (var (path, ready, name) in new[]
            {
                ("policy", "form[data-form=grant]", "policy-dark"),
                ("inventory", "table[data-table=inventory]", "inventory-dark"),
                ("inventory/import", "form[data-form=import-file]", "inventory-import-dark"),
                // Last: the field colour below is read on this page.
                ("inventory/new", "form[data-form=registration]", "inventory-new-dark"),
            })
            {
                Browser.Open(Url(path));
                Browser.WaitFor(ready);
                Assert.Equal("dark", Browser.Driver.FindElement(By.TagName("html")).GetAttribute("data-theme"));
                Browser.Screenshot(name);
            }
            var input = (string)Browser.Driver.ExecuteScript(
                "return getComputedStyle(document.querySelector('input[name=\"Form.Name\"]')).backgroundColor")!;
            var body = (string)Browser.Driver.ExecuteScript("return getComputedStyle(document.body).backgroundColor")!;
            Assert.Equal(body, input); // fields take the theme's background, not the browser's white
        }
        finally
        {
            Browser.Driver.Manage().Cookies.DeleteCookieNamed(Client.Components.Theme.CookieName);
        }
    }
}
