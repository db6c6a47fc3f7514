using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using AngleSharp.Html.Parser;
using IfiDashboard.Server.Security;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Api;
using IfiDashboard.Server.Tests.Functional;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>
/// The sign-in modes other than OpenID Connect (whose flow the Chromium test runs): none configured, anonymous read,
/// and a trusted reverse proxy's identity header, believed only from the configured proxy addresses.
/// </summary>
public sealed class SignInModesTests
{
    const string UserHeader = "X-Remote-User";
    const string GroupsHeader = "X-Remote-Groups";

    static async Task<(HttpStatusCode Status, string Body)> GetAsync(HttpClient client, string path, string accept = "text/html")
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue(accept));
        using var response = await client.SendAsync(request);
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task With_no_sign_in_configured_the_server_starts_says_so_and_serves_only_health_and_static_files()
    {
        await using var host = new DashboardHost { UseTestSignIn = false };
        var client = host.CreateClient();

        var overview = await GetAsync(client, "/");
        var policy = await GetAsync(client, "/policy");
        var api = await GetAsync(client, "/api/v1/instances", "application/json");
        var health = await GetAsync(client, "/healthz");
        var stylesheet = await GetAsync(client, "/_content/IfiDashboard.Client/app.css");

        Assert.Equal(HttpStatusCode.Unauthorized, overview.Status);
        Assert.Contains("Sign-in is not configured", overview.Body, StringComparison.Ordinal);
        Assert.Contains("Auth:Oidc:Authority", overview.Body, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Unauthorized, policy.Status);
        Assert.DoesNotContain("waiver", policy.Body, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(HttpStatusCode.Unauthorized, api.Status);
        Assert.Contains("\"status\":401", api.Body, StringComparison.Ordinal);
        Assert.Equal((HttpStatusCode.OK, "alive"), health);
        Assert.Equal(HttpStatusCode.OK, stylesheet.Status);
        Assert.Single(host.Logs.All.Split('\n'), line => line.Contains("Sign-in is not configured", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Anonymous_read_lets_a_browser_read_the_pages_but_not_post_a_form_or_call_the_api()
    {
        await using var host = new DashboardHost();
        host.Settings["Auth:AllowAnonymousRead"] = "true";
        var client = TestSignIn.Anonymous(host.CreateClient());
        var admin = host.CreateClient();
        var token = await TestSignIn.FormTokenAsync(admin);

        var overview = await GetAsync(client, "/");
        using var post = await client.PostAsync("/policy", new FormUrlEncodedContent(new Dictionary<string, string>
        {
            [DashboardPages.FormNameField] = "grant", ["__RequestVerificationToken"] = token,
        }));
        var api = await GetAsync(client, "/api/v1/instances", "application/json");

        Assert.Equal(HttpStatusCode.OK, overview.Status);
        Assert.Contains("Not signed in (read-only)", overview.Body, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Unauthorized, post.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, api.Status);
    }

    static DashboardHost ProxyHost(string trust)
    {
        var host = new DashboardHost { UseTestSignIn = false };
        host.Settings["Auth:Proxy:UserHeader"] = UserHeader;
        host.Settings["Auth:Proxy:RolesHeader"] = GroupsHeader;
        host.Settings[trust.Contains('/', StringComparison.Ordinal) ? "Auth:Proxy:KnownNetworks:0" : "Auth:Proxy:KnownProxies:0"] = trust;
        host.Settings["Auth:Roles:Viewer:0"] = "BANK\\Domain Users";
        host.Settings["Auth:Roles:Operator:0"] = "BANK\\IFI-Ops";
        // A real socket, so the request comes from a real address (127.0.0.1).
        host.UseKestrel(0);
        host.StartServer();
        return host;
    }

    static HttpClient Behind(DashboardHost host, string user, string groups)
    {
        var client = TestSignIn.Anonymous(host.CreateClient());
        client.DefaultRequestHeaders.Add(UserHeader, user);
        client.DefaultRequestHeaders.Add(GroupsHeader, groups);
        return client;
    }

    [Fact]
    public async Task A_known_proxys_identity_header_signs_the_user_in_with_the_roles_its_groups_map_to()
    {
        await using var host = ProxyHost("127.0.0.1");
        var operatorClient = Behind(host, "BANK\\otto", "BANK\\Domain Users, BANK\\IFI-Ops");
        var viewerClient = Behind(host, "BANK\\vera", "BANK\\Domain Users");

        var page = await GetAsync(operatorClient, "/inventory");
        var operatorApi = await GetAsync(operatorClient, "/api/v1/api-keys", "application/json");
        var viewerPage = await GetAsync(viewerClient, "/policy");
        var nobody = await GetAsync(Behind(host, "BANK\\mallory", "BANK\\Guests"), "/");

        Assert.Equal(HttpStatusCode.OK, page.Status);
        Assert.Equal("BANK\\otto", new HtmlParser().ParseDocument(page.Body).QuerySelector("[data-user]")?.TextContent);
        Assert.Equal(HttpStatusCode.Forbidden, operatorApi.Status); // managing keys takes an Administrator
        Assert.Equal(HttpStatusCode.OK, viewerPage.Status);
        Assert.Equal(HttpStatusCode.Forbidden, nobody.Status);
    }

    [Fact]
    public async Task A_proxy_user_is_recorded_by_the_user_name_in_lower_case_at_the_proxy_whatever_its_case()
    {
        await using var host = ProxyHost("127.0.0.1");

        using var registered = await Behind(host, "BANK\\Otto", "BANK\\IFI-Ops")
            .PutAsJsonAsync("/api/v1/instances/CI-PROXY", Api.ApiTestData.PutBody("PROXY-SQL01"));

        registered.EnsureSuccessStatusCode();
        var entry = Assert.Single(await host.Services.GetRequiredService<AuditLog>()
            .QueryAsync(new AuditFilter(Action: AuditActions.InstanceRegistered), null, 10, CancellationToken.None));
        Assert.Equal(("BANK\\Otto", "bank\\otto@proxy"), (entry.Actor, entry.ActorIdentity));
    }

    [Fact]
    public async Task The_identity_header_from_an_address_that_is_not_a_known_proxy_is_refused_and_logged()
    {
        await using var host = ProxyHost("10.99.0.0/16");

        var page = await GetAsync(Behind(host, "BANK\\admin", "BANK\\IFI-Ops"), "/inventory");
        var withoutHeader = await GetAsync(host.CreateClient(), "/inventory");

        Assert.Equal(HttpStatusCode.Unauthorized, page.Status);
        Assert.DoesNotContain("BANK\\admin", page.Body, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Unauthorized, withoutHeader.Status);
        Assert.Contains("Refused the identity header X-Remote-User from 127.0.0.1", host.Logs.All, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Signing_out_of_the_provider_in_proxy_mode_returns_to_the_overview()
    {
        await using var host = ProxyHost("127.0.0.1");
        using var client = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false }) { BaseAddress = host.CreateClient().BaseAddress };
        client.DefaultRequestHeaders.Add(UserHeader, "BANK\\vera");

        using var response = await client.GetAsync(SignInExtensions.ProviderSignOutPath);

        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
        Assert.Equal("/", response.Headers.Location?.OriginalString);
    }

    [Fact]
    public async Task The_audit_records_the_client_address_a_known_proxy_forwarded_and_ignores_what_the_client_wrote()
    {
        await using var host = ProxyHost("127.0.0.1");
        var operatorClient = Behind(host, "BANK\\otto", "BANK\\Domain Users, BANK\\IFI-Ops");
        // The client wrote the first entry; the proxy appended the address it was reached from.
        operatorClient.DefaultRequestHeaders.Add("X-Forwarded-For", "198.51.100.66, 203.0.113.7");

        (await operatorClient.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("BEHIND-THE-PROXY"))).EnsureSuccessStatusCode();

        var entry = Assert.Single(await host.Services.GetRequiredService<AuditLog>()
            .QueryAsync(new AuditFilter(Action: AuditActions.InstanceRegistered), null, 10, CancellationToken.None));
        Assert.Equal("BANK\\otto", entry.Actor);
        Assert.Equal("203.0.113.7", entry.RemoteAddress);
    }
}
