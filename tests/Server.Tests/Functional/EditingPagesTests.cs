using IfiDashboard.Shared.Security;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Tests.Security;
using System.Net;
using AngleSharp.Dom;
using AngleSharp.Html.Dom;
using AngleSharp.Html.Parser;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The policy and inventory pages through the real server, as a browser without script uses them: GET the page, fill
/// the form, POST it with the antiforgery token and the pressed button, follow the redirect. Polls land from a
/// simulated instance over TCP.
/// </summary>
public sealed class EditingPagesTests
{
    static ScenarioInstance VendorApp() => new() { Name = "vendor-app", Profile = "2019", IfiEnabled = false };

    static Task AssessAsync(DashboardHost host) =>
        host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);

    static async Task<string?> GridStatusAsync(HttpClient client, string name) =>
        (await PageAsync(client, "/instances")).QuerySelector($"a[data-instance='{name}']")?.GetAttribute("data-status");

    static async Task<IHtmlDocument> PageAsync(HttpClient client, string path) =>
        new HtmlParser().ParseDocument(await client.GetStringAsync(path));

    static Dictionary<string, string> RegistrationOf(DashboardHost host, string name) => new()
    {
        ["Form.Name"] = name,
        ["Form.Host"] = "127.0.0.1",
        ["Form.Port"] = host.Fleet[name].Port.ToString(System.Globalization.CultureInfo.InvariantCulture),
        ["Form.TrustServerCertificate"] = "true",
        ["Form.CredentialName"] = "fleet",
        ["Form.Tags"] = "erp; tier2",
    };

    [Fact]
    public async Task Instance_registered_through_the_form_is_polled_then_a_waiver_makes_it_waived_and_revoking_turns_it_back()
    {
        await using var host = new DashboardHost(VendorApp());
        var client = host.CreateClient();

        var tested = await SubmitAsync(client, "/inventory/new", "registration", RegistrationOf(host, "vendor-app"), ("Form.Command", "test"));
        var registered = await SubmitAsync(client, "/inventory/new", "registration", RegistrationOf(host, "vendor-app"), ("Form.Command", "save"));
        var polled = await host.PollAllAsync();
        await AssessAsync(host);
        var beforeWaiver = await GridStatusAsync(client, "vendor-app");

        var policy = await PageAsync(client, "/policy");
        var choice = policy.QuerySelector("select[name='Grant.InstanceId'] option:not([value=''])")!;
        var granted = await SubmitAsync(client, "/policy", "grant", new()
        {
            ["Grant.InstanceId"] = choice.GetAttribute("value")!,
            ["Grant.Reason"] = "vendor support window CHG-1234",
        });
        await AssessAsync(host);
        var waived = await GridStatusAsync(client, "vendor-app");
        var waiverRow = (await PageAsync(client, "/policy")).QuerySelector("tr[data-waiver]")!;

        var revoked = await SubmitAsync(client, $"/policy?revoke={waiverRow.GetAttribute("data-waiver")}", "revoke", []);
        await AssessAsync(host);
        var afterRevoke = await GridStatusAsync(client, "vendor-app");

        Assert.Equal("ok", tested.Page.QuerySelector("[data-connection-test]")!.GetAttribute("data-connection-test"));
        Assert.Equal("Ok", tested.Page.QuerySelector("[data-table='test-probes'] tr[data-probe='services']")!.GetAttribute("data-outcome"));
        Assert.Contains("IFI disabled", tested.Page.QuerySelector("[data-connection-test] .status-line")!.TextContent, StringComparison.Ordinal);
        Assert.EndsWith("/inventory", registered.Path, StringComparison.Ordinal);
        Assert.Contains("Registered vendor-app", registered.Message, StringComparison.Ordinal);
        Assert.Equal("erp, tier2", registered.Page.QuerySelector("tr[data-instance='vendor-app'] .tags")!.TextContent);
        Assert.Equal(1, polled);
        Assert.Equal("NonCompliant", beforeWaiver);
        Assert.StartsWith("vendor-app", choice.TextContent, StringComparison.Ordinal);
        Assert.Contains("Waiver granted for vendor-app", granted.Message, StringComparison.Ordinal);
        Assert.Equal("Waived", waived);
        Assert.Equal("Waived", waiverRow.QuerySelector("[data-current-status]")!.GetAttribute("data-current-status"));
        // The signed-in user is the author: the form has no name field to type another.
        Assert.Contains(TestSignIn.UserName(DashboardRoles.Administrator), waiverRow.TextContent, StringComparison.Ordinal);
        Assert.Contains("Waiver for vendor-app revoked", revoked.Message, StringComparison.Ordinal);
        Assert.Empty(revoked.Page.QuerySelectorAll("tr[data-waiver]"));
        Assert.Equal("NonCompliant", afterRevoke);
    }

    [Fact]
    public async Task With_four_eyes_the_author_may_not_approve_their_waiver_through_the_form_and_a_second_operator_does()
    {
        await using var host = new DashboardHost(VendorApp());
        host.Settings["Auth:WaiversNeedApproval"] = "true";
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var author = TestSignIn.As(host.CreateClient(), "otto@bank.test", DashboardRoles.Operator);
        var second = TestSignIn.As(host.CreateClient(), "olga@bank.test", DashboardRoles.Operator);

        var granted = await SubmitAsync(author, "/policy", "grant", new()
        {
            ["Grant.InstanceId"] = host.IdOf("vendor-app").ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Grant.Reason"] = "vendor freeze CHG-99",
        });
        await AssessAsync(host);
        var pendingStatus = await GridStatusAsync(author, "vendor-app");
        var row = granted.Page.QuerySelector("tr[data-waiver]")!;
        var waiverId = row.GetAttribute("data-waiver")!;
        var beforeSelfApproval = await StoreDump.AllTextAsync(host.Services);
        using var selfApproval = await author.PostAsync("/policy", new FormUrlEncodedContent(new Dictionary<string, string>
        {
            [DashboardPages.FormNameField] = "approve", ["__RequestVerificationToken"] = await TestSignIn.FormTokenAsync(author),
            ["Approve.WaiverId"] = waiverId,
        }));
        var selfApprovalPage = new HtmlParser().ParseDocument(await selfApproval.Content.ReadAsStringAsync());
        var unchanged = beforeSelfApproval == await StoreDump.AllTextAsync(host.Services);
        var secondSees = (await PageAsync(second, "/policy")).QuerySelector($"tr[data-waiver='{waiverId}']")!;
        var approved = await SubmitAsync(second, "/policy", "approve", [], ("Approve.WaiverId", waiverId));
        await AssessAsync(host);

        Assert.Contains("counts once someone else approves it", granted.Message, StringComparison.Ordinal);
        Assert.Equal("pending", row.QuerySelector("[data-waiver-state]")!.GetAttribute("data-waiver-state"));
        Assert.Null(row.QuerySelector("button[data-approve]"));
        Assert.Equal("NonCompliant", pendingStatus);
        Assert.Equal(HttpStatusCode.Forbidden, selfApproval.StatusCode);
        Assert.Contains("needs the approval of someone else", selfApprovalPage.QuerySelector("[data-form-message]")!.TextContent, StringComparison.Ordinal);
        Assert.True(unchanged);
        Assert.NotNull(secondSees.QuerySelector("button[data-approve]"));
        Assert.Contains("Waiver for vendor-app approved", approved.Message, StringComparison.Ordinal);
        Assert.Contains("approved by olga@bank.test", approved.Page.QuerySelector($"tr[data-waiver='{waiverId}']")!.TextContent, StringComparison.Ordinal);
        Assert.Equal("Waived", await GridStatusAsync(second, "vendor-app"));
    }

    [Fact]
    public async Task Registration_errors_are_shown_next_to_their_fields_and_nothing_is_saved()
    {
        await using var host = new DashboardHost(VendorApp());
        await host.RegisterFleetAsync();
        var client = host.CreateClient();

        var badPort = await SubmitAsync(client, "/inventory/new", "registration",
            new(RegistrationOf(host, "vendor-app")) { ["Form.Name"] = "other", ["Form.Port"] = "abc" }, ("Form.Command", "save"));
        var duplicate = await SubmitAsync(client, "/inventory/new", "registration", RegistrationOf(host, "vendor-app"), ("Form.Command", "save"));
        var both = await SubmitAsync(client, "/inventory/new", "registration",
            new(RegistrationOf(host, "vendor-app")) { ["Form.Name"] = "other", ["Form.InstanceName"] = "REPORTING" }, ("Form.Command", "save"));

        Assert.Contains("port number", badPort.ErrorFor("Form.Port"), StringComparison.Ordinal);
        Assert.Equal("abc", badPort.Page.QuerySelector("input[name='Form.Port']")!.GetAttribute("value"));
        Assert.Equal("true", badPort.Page.QuerySelector("input[name='Form.Port']")!.GetAttribute("aria-invalid"));
        Assert.Contains("already named 'vendor-app'", duplicate.ErrorFor("Form.Name"), StringComparison.Ordinal);
        Assert.Contains("not both", both.ErrorFor("Form.Port"), StringComparison.Ordinal);
        Assert.Single((await PageAsync(client, "/inventory")).QuerySelectorAll("tr[data-instance]"));
    }

    [Fact]
    public async Task Edit_saves_the_changed_fields_and_retire_asks_first()
    {
        await using var host = new DashboardHost(VendorApp());
        await host.RegisterFleetAsync();
        var client = host.CreateClient();
        var id = host.IdOf("vendor-app");

        var edit = await PageAsync(client, $"/inventory/{id}");
        var saved = await SubmitAsync(client, $"/inventory/{id}", "registration",
            new() { ["Form.Environment"] = "Staging", ["Form.PollIntervalSeconds"] = "600" }, ("Form.Command", "save"));
        var confirm = await PageAsync(client, $"/inventory?retire={id}");
        var listedWhileAsking = confirm.QuerySelectorAll("tr[data-instance]").Length;
        var retired = await SubmitAsync(client, $"/inventory?retire={id}", "retire", []);
        var missing = await client.GetAsync("/inventory/999");

        Assert.Equal("127.0.0.1", edit.QuerySelector("input[name='Form.Host']")!.GetAttribute("value"));
        Assert.Null(edit.QuerySelector("input[type=password]"));
        Assert.Contains("Credentials__fleet__Password", edit.QuerySelector("[data-secret-note]")!.TextContent, StringComparison.Ordinal);
        Assert.Contains("Saved vendor-app", saved.Message, StringComparison.Ordinal);
        var row = saved.Page.QuerySelector("tr[data-instance='vendor-app']")!;
        Assert.Contains("Staging", row.TextContent, StringComparison.Ordinal);
        Assert.Contains("10 min", row.TextContent, StringComparison.Ordinal);
        Assert.NotNull(confirm.QuerySelector($"[data-confirm-retire='{id}'] form[data-form='retire']"));
        Assert.Equal(1, listedWhileAsking);
        Assert.Contains("Retired vendor-app", retired.Message, StringComparison.Ordinal);
        Assert.NotNull(retired.Page.QuerySelector("[data-inventory-empty]"));
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }

    [Fact]
    public async Task Rules_are_edited_as_a_draft_refused_without_a_name_and_saved_as_a_new_version()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "vault", Profile = "2022", IfiEnabled = true, Inventory = new() { Tags = ["pci"] } });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var client = host.CreateClient();
        var before = (await PageAsync(client, "/policy")).QuerySelector("[data-policy-version]")!.GetAttribute("data-policy-version");

        var added = await SubmitAsync(client, "/policy", "rules", [], ("Draft.Command", "add"));
        var unnamed = await SubmitAsync(client, "/policy", "rules", new() { ["Draft.Rules[0].Desired"] = "Forbidden" }, ("Draft.Command", "save"));
        var saved = await SubmitAsync(client, "/policy", "rules", new()
        {
            ["Draft.Rules[0].Name"] = "pci", ["Draft.Rules[0].Desired"] = "Forbidden", ["Draft.Rules[0].Tags"] = "pci",
        }, ("Draft.Command", "save"));
        await AssessAsync(host);

        Assert.Single(added.Page.QuerySelectorAll("tr[data-rule]"));
        Assert.Contains("needs a name", unnamed.ErrorFor("Draft.Rules[0].Name"), StringComparison.Ordinal);
        Assert.Equal("Forbidden", unnamed.Page.QuerySelector("select[name='Draft.Rules[0].Desired'] option[selected]")!.GetAttribute("value"));
        var version = saved.Page.QuerySelector("[data-policy-version]")!.GetAttribute("data-policy-version");
        Assert.Equal(int.Parse(before!) + 1, int.Parse(version!));
        Assert.Contains($"policy version {version}", saved.Message, StringComparison.Ordinal);
        Assert.Equal("pci", saved.Page.QuerySelector("input[name='Draft.Rules[0].Name']")!.GetAttribute("value"));
        Assert.Equal("NonCompliant", await GridStatusAsync(client, "vault"));
    }

    [Fact]
    public async Task A_waiver_without_a_reason_or_already_expired_is_refused_next_to_the_field()
    {
        await using var host = new DashboardHost(VendorApp());
        await host.RegisterFleetAsync();
        var client = host.CreateClient();
        var id = host.IdOf("vendor-app").ToString(System.Globalization.CultureInfo.InvariantCulture);

        var noReason = await SubmitAsync(client, "/policy", "grant", new() { ["Grant.InstanceId"] = id, ["Grant.Reason"] = " " });
        var past = await SubmitAsync(client, "/policy", "grant", new()
        {
            ["Grant.InstanceId"] = id, ["Grant.Reason"] = "late", ["Grant.ExpiresAt"] = "2001-01-01T00:00",
        });

        Assert.Contains("Say why", noReason.ErrorFor("Grant.Reason"), StringComparison.Ordinal);
        Assert.Equal("error", noReason.Page.QuerySelector("[data-form-message]")!.GetAttribute("data-form-message"));
        Assert.Equal("The expiry must be in the future.", past.ErrorFor("Grant.ExpiresAt"));
        Assert.Equal("late", past.Page.QuerySelector("textarea[name='Grant.Reason']")!.TextContent);
        Assert.Empty(past.Page.QuerySelectorAll("tr[data-waiver]"));
    }

    /// <summary>The page after a form was posted (and its redirect followed).</summary>
    internal sealed record Submitted(IHtmlDocument Page, string Path)
    {
        public string Message => Page.QuerySelector("[data-form-message]")?.TextContent ?? "";

        public string ErrorFor(string field) =>
            Page.QuerySelector($"[data-error-for='{field}']")?.TextContent ?? throw new Xunit.Sdk.XunitException($"No error next to {field}:\n{Page.Body!.TextContent}");
    }

    /// <summary>
    /// Posts the form named <paramref name="form"/> as a browser would: every field with its current value (hidden
    /// ones included: the antiforgery token and Blazor's handler name), then the changes typed, then the pressed button.
    /// </summary>
    internal static async Task<Submitted> SubmitAsync(HttpClient client, string path, string form, Dictionary<string, string> typed,
        (string Name, string Value)? button = null)
    {
        var page = await PageAsync(client, path);
        var element = page.QuerySelector($"form[data-form='{form}']") ?? throw new Xunit.Sdk.XunitException($"No form '{form}' on {path}");
        var fields = CurrentValues(element);
        foreach (var (name, value) in typed) fields[name] = value;
        if (button is { } pressed) fields[pressed.Name] = pressed.Value;
        var response = await client.PostAsync(path, new FormUrlEncodedContent(fields));
        var html = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"{(int)response.StatusCode}: {html}");
        return new Submitted(new HtmlParser().ParseDocument(html), response.RequestMessage!.RequestUri!.AbsolutePath);
    }

    static Dictionary<string, string> CurrentValues(IElement form)
    {
        var fields = new Dictionary<string, string>();
        foreach (var input in form.QuerySelectorAll("input[name]"))
        {
            var type = input.GetAttribute("type") ?? "text";
            if (type is "submit" or "button") continue;
            if (type == "checkbox" && !input.HasAttribute("checked")) continue;
            fields[input.GetAttribute("name")!] = input.GetAttribute("value") ?? (type == "checkbox" ? "on" : "");
        }
        foreach (var select in form.QuerySelectorAll("select[name]"))
        {
            var option = select.QuerySelector("option[selected]") ?? select.QuerySelector("option");
            fields[select.GetAttribute("name")!] = option?.GetAttribute("value") ?? "";
        }
        foreach (var area in form.QuerySelectorAll("textarea[name]")) fields[area.GetAttribute("name")!] = area.TextContent;
        return fields;
    }
}
