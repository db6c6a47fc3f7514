using IfiDashboard.Store.Audit;
using Microsoft.Extensions.DependencyInjection;
using OpenQA.Selenium;
using IfiDashboard.Store.Policy;

namespace IfiDashboard.E2E.Tests.SignIn;

/// <summary>
/// Signing in through a real OpenID Connect provider (oidc-provider on loopback, code flow with PKCE) in headless
/// Chromium, as each of its accounts, and what each role then sees and may do on the pages.
/// </summary>
[Collection(SignInCollection.Name)]
public sealed class SignInInBrowserTests(SignInFixture fixture)
{
    Browser Browser => fixture.Browser;
    string Url(string path) => fixture.Server.BaseUrl + path;

    /// <summary>Opens <paramref name="path"/> with no session, signs in at the provider as <paramref name="login"/>
    /// and waits until the browser is back on the dashboard, at <paramref name="landsOn"/> when given.</summary>
    void SignInAs(string login, string path, string? landsOn = null)
    {
        // The provider and the dashboard share the host 127.0.0.1, so this ends both sessions.
        Browser.Open(Url(""));
        Browser.Driver.Manage().Cookies.DeleteAllCookies();
        Browser.Open(Url(path));
        Browser.WaitUntil(d => d.Url.StartsWith(fixture.Provider.Issuer, StringComparison.Ordinal));
        Browser.WaitFor("input[name=login]").SendKeys(login);
        Browser.Driver.FindElement(By.Name("password")).SendKeys("any password");
        Browser.Driver.FindElement(By.CssSelector("button[type=submit]")).Click();
        Browser.WaitUntil(d => landsOn is null ? d.Url.StartsWith(Url(path), StringComparison.Ordinal) : d.Url == Url(landsOn));
    }

    void GrantWaiver(int days, string reason = "Vendor window (sign-in test)")
    {
        Browser.WaitFor("form[data-form=grant]");
        Browser.Driver.FindElement(By.Name("Grant.InstanceId")).SendKeys(SignInFixture.InstanceName);
        Browser.Driver.FindElement(By.Name("Grant.Reason")).SendKeys(reason);
        var expiry = DateTime.UtcNow.AddDays(days).ToString("yyyy-MM-dd'T'HH:mm", System.Globalization.CultureInfo.InvariantCulture);
        // A datetime-local input takes typed keys field by field; its value is set as the form would post it.
        Browser.Driver.ExecuteScript("document.querySelector(\"[name='Grant.ExpiresAt']\").value = arguments[0];", expiry);
        Browser.Driver.FindElement(By.CssSelector("[data-action=grant]")).Click();
    }

    [Fact]
    public async Task An_anonymous_browser_is_sent_to_the_provider_and_an_operator_comes_back_signed_in_with_their_name()
    {
        var audit = fixture.Server.Services.GetRequiredService<AuditLog>();
        var before = await audit.QueryAsync(new AuditFilter(Actor: "Otto Operator", Action: AuditActions.SignIn), null, 100, CancellationToken.None);

        SignInAs("operator", "instances");
        var after = await audit.QueryAsync(new AuditFilter(Actor: "Otto Operator", Action: AuditActions.SignIn), null, 100, CancellationToken.None);

        Assert.Equal("Otto Operator", Browser.Text("[data-user]"));
        Assert.Equal("Instances", Browser.Text("h1"));
        Assert.NotEmpty(Browser.All("[data-sign-out]"));
        Assert.Empty(Browser.All("[data-demo-banner]"));
        var signIn = Assert.Single(after, e => before.All(b => b.Id != e.Id));
        Assert.Equal("127.0.0.1", signIn.RemoteAddress);
        Assert.Contains("\"Operator\"", signIn.After, StringComparison.Ordinal);
        Browser.Screenshot("signin-operator-instances");
    }

    [Fact]
    public void An_operator_grants_a_waiver_as_themselves_but_longer_than_the_limit_and_policy_rules_are_refused()
    {
        SignInAs("operator", "policy");

        GrantWaiver(days: 60);
        var tooLong = Browser.Text("[data-error-for='Grant.ExpiresAt']");
        GrantWaiver(days: 7);
        Browser.WaitUntil(d => d.Url.Contains("done=granted", StringComparison.Ordinal));
        var author = Browser.Text($"tr[data-waiver][data-instance='{SignInFixture.InstanceName}']");
        Browser.Click("[data-action=save-rules]");
        var refusal = Browser.Text("[data-signin-page] h1");

        Assert.Contains("at most 30 days", tooLong, StringComparison.Ordinal);
        Assert.Contains("Otto Operator", author, StringComparison.Ordinal);
        Assert.Equal("Not allowed for your role", refusal);
    }

    [Fact]
    public void A_viewer_reads_the_policy_but_a_waiver_they_post_is_refused()
    {
        SignInAs("viewer", "policy");

        Assert.Equal("Vera Viewer", Browser.Text("[data-user]"));
        GrantWaiver(days: 7);
        Assert.Equal("Not allowed for your role", Browser.Text("[data-signin-page] h1"));
        Assert.Contains("Viewer", Browser.Text("[data-signin-message]"), StringComparison.Ordinal);
    }

    [Fact]
    public void An_administrator_saves_the_rules_and_signs_out()
    {
        SignInAs("admin", "policy");

        Browser.Click("[data-action=save-rules]");
        Browser.WaitUntil(d => d.Url.Contains("done=saved", StringComparison.Ordinal));
        var saved = Browser.Text("[data-form-message=ok]");
        Browser.Click("[data-sign-out]");
        var signedOut = Browser.Text("[data-signin-page] h1");
        // Then out of the provider too: it asks first, and sends the browser back to the dashboard, which sends it
        // to sign in again.
        Browser.Click("[data-signin-link]");
        Browser.WaitUntil(d => d.Url.StartsWith(fixture.Provider.Issuer, StringComparison.Ordinal));
        Browser.Click("button[name=logout]");
        Browser.WaitFor("input[name=login]");

        Assert.Contains("policy version", saved, StringComparison.Ordinal);
        Assert.Equal("Signed out", signedOut);
    }

    [Theory]
    [InlineData("%2F%2Fevil.example%2Fphish")]
    [InlineData("https%3A%2F%2Fevil.example%2F")]
    [InlineData("%2F%5Cevil.example")]
    [InlineData("%2F%09%2Fevil.example%2Fx")] // a browser drops the tab: //evil.example/x
    [InlineData("%2Finstances%0A")] // a line break cannot go into the Location header
    public void The_sign_in_link_returns_only_to_a_page_of_the_dashboard(string returnUrl)
    {
        SignInAs("viewer", $"signin?returnUrl={returnUrl}", landsOn: "");

        Assert.Equal(Url(""), Browser.Driver.Url);
        Assert.Equal("Vera Viewer", Browser.Text("[data-user]"));
    }

    [Fact]
    public void A_changed_role_mapping_holds_from_the_next_request_not_from_the_next_sign_in()
    {
        SignInAs("operator", "policy");
        var before = Browser.All("form[data-form=grant]").Count;
        var configuration = (Microsoft.Extensions.Configuration.IConfigurationRoot)fixture.Server.Services
            .GetRequiredService<Microsoft.Extensions.Configuration.IConfiguration>();
        try
        {
            // The operators' group taken out of the Operator role, as an administrator would in configuration.
            configuration["Auth:Roles:Operator:0"] = "ifi-former-operators";
            configuration.Reload();
            Browser.Open(Url("policy"));

            // The cookie's roles no longer hold: the provider's session signs the user in again, without a prompt,
            // with the roles the mapping gives now: none.
            Assert.Equal("Not allowed for your role", Browser.Text("[data-signin-page] h1"));
            Assert.Equal(1, before);
        }
        finally
        {
            configuration["Auth:Roles:Operator:0"] = "ifi-operators";
            configuration.Reload();
        }
    }

    [Fact]
    public void An_account_the_role_mapping_does_not_name_is_refused_every_page()
    {
        SignInAs("nobody", "");

        Assert.Equal("Not allowed for your role", Browser.Text("[data-signin-page] h1"));
        Assert.Contains("no dashboard role", Browser.Text("[data-signin-message]"), StringComparison.Ordinal);
    }

    /// <summary>Four-eyes approval on, as an administrator would turn it on in configuration, until disposed.</summary>
    sealed class FourEyes : IDisposable
    {
        readonly Microsoft.Extensions.Configuration.IConfigurationRoot _configuration;

        public FourEyes(SignInFixture fixture)
        {
            _configuration = (Microsoft.Extensions.Configuration.IConfigurationRoot)fixture.Server.Services
                .GetRequiredService<Microsoft.Extensions.Configuration.IConfiguration>();
            _configuration["Auth:WaiversNeedApproval"] = "true";
            _configuration.Reload();
        }

        public void Dispose()
        {
            _configuration["Auth:WaiversNeedApproval"] = "false";
            _configuration.Reload();
        }
    }

    async Task<IfiDashboard.Compliance.Policy.Waiver> StoredWaiverAsync(string reason) =>
        (await fixture.Server.Services.GetRequiredService<IfiDashboard.Store.Policy.PolicyStore>().ListWaiversAsync(CancellationToken.None))
        .Single(w => w.Waiver.Reason == reason).Waiver;

    /// <summary>Revokes the waiver a test granted, so the fixture's other tests find the instance's waivers as before.</summary>
    async Task RevokeAsync(string reason)
    {
        var policies = fixture.Server.Services.GetRequiredService<IfiDashboard.Store.Policy.PolicyStore>();
        foreach (var (id, _) in (await policies.ListWaiversAsync(CancellationToken.None)).Where(w => w.Waiver.Reason == reason))
            await policies.RevokeWaiverAsync(id, "sign-in test clean-up", CancellationToken.None);
    }

    string WaiverId(string reason) =>
        Browser.Driver.FindElement(By.XPath($"//tr[@data-waiver][contains(., '{reason}')]")).GetAttribute("data-waiver")!;

    [Fact]
    public async Task A_subject_renamed_at_the_provider_cannot_approve_its_own_waiver()
    {
        const string reason = "Renamed author (four-eyes sign-in test)";
        using var fourEyes = new FourEyes(fixture);
        SignInAs("operator", "policy");
        GrantWaiver(days: 7, reason);
        Browser.WaitUntil(d => d.Url.Contains("done=awaiting-approval", StringComparison.Ordinal), 60);
        await fixture.Provider.RenameAsync("operator", "Otto Renamed");
        try
        {
            SignInAs("operator", "policy");
            var shownAs = Browser.Text("[data-user]", 60);
            var id = WaiverId(reason);
            var approveOffered = Browser.All($"button[data-approve='{id}']").Count;
            // The button is not offered; the form posted anyway, as a hand-made request would, is refused.
            Browser.Driver.ExecuteScript("""
                const form = document.getElementById('approve-waiver');
                const field = document.createElement('input');
                field.type = 'hidden'; field.name = 'Approve.WaiverId'; field.value = arguments[0];
                form.appendChild(field);
                form.submit();
                """, id);
            var refusal = Browser.Text("[data-form-message=error]", 60);
            var waiver = await StoredWaiverAsync(reason);

            Assert.Equal("Otto Renamed", shownAs);
            Assert.Equal(0, approveOffered);
            Assert.Contains("needs the approval of someone else", refusal, StringComparison.Ordinal);
            Assert.True(waiver.IsPendingApproval);
            Assert.Equal(("Otto Operator", $"operator@{fixture.Provider.Issuer}"), (waiver.Author, waiver.AuthorIdentity));
        }
        finally
        {
            await fixture.Provider.RenameAsync("operator", "Otto Operator");
            await RevokeAsync(reason);
        }
    }

    [Fact]
    public async Task Two_people_with_one_display_name_can_approve_each_others_waiver()
    {
        const string reason = "Namesakes (four-eyes sign-in test)";
        using var fourEyes = new FourEyes(fixture);
        try
        {
            await NamesakesApproveAsync(reason);
        }
        finally
        {
            await RevokeAsync(reason);
        }
    }

    async Task NamesakesApproveAsync(string reason)
    {
        SignInAs("sam-a", "policy");
        GrantWaiver(days: 7, reason);
        Browser.WaitUntil(d => d.Url.Contains("done=awaiting-approval", StringComparison.Ordinal), 60);

        SignInAs("sam-b", "policy");
        var shownAs = Browser.Text("[data-user]", 60);
        Browser.Click($"button[data-approve='{WaiverId(reason)}']", 60);
        Browser.WaitUntil(d => d.Url.Contains("done=approved", StringComparison.Ordinal), 60);
        var waiver = await StoredWaiverAsync(reason);
        var approval = (await fixture.Server.Services.GetRequiredService<AuditLog>()
            .QueryAsync(new AuditFilter(Action: AuditActions.WaiverApproved), null, 100, CancellationToken.None))
            .First(e => e.Before!.Contains(reason, StringComparison.Ordinal));

        Assert.Equal("Sam Taylor", shownAs);
        Assert.False(waiver.IsPendingApproval);
        Assert.Equal(($"sam-a@{fixture.Provider.Issuer}", "Sam Taylor", $"sam-b@{fixture.Provider.Issuer}"),
            (waiver.AuthorIdentity, waiver.ApprovedBy, waiver.ApprovedByIdentity));
        Assert.Equal(("Sam Taylor", $"sam-b@{fixture.Provider.Issuer}"), (approval.Actor, approval.ActorIdentity));
    }
}
