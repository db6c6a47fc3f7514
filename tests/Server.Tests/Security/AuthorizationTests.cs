using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Shared.Security;
using System.Net;
using System.Reflection;
using System.Text;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Routing;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>
/// Who may use what, checked for every page, form and endpoint the application maps (read from its own endpoint
/// data source and its page components), so a new one without a rule fails here. Users sign in through the test
/// scheme; the real OpenID Connect flow is the Chromium test's (tests/E2E.Tests/SignIn).
/// </summary>
public sealed class AuthorizationTests(SharedPolledInstance fleet) : IClassFixture<SharedPolledInstance>
{
    static readonly string[] Roles = [DashboardRoles.Viewer, DashboardRoles.Operator, DashboardRoles.Administrator];
    /// <summary>What anyone may reach: probes, the redirects to sign in and out at the provider, static files, and the
    /// collectors' API (its own key filter).</summary>
    static readonly string[] AnonymousPatterns = ["/healthz", "/readyz", "/signin", "/signout/provider", "/api/v1/collector/"];

    // One server for the class: each test compares the store before and after each refused request, so what an
    // admitted one wrote in an earlier test does not count.
    readonly DashboardHost _host = fleet.Host;
    readonly long _instanceId = fleet.InstanceId;

    HttpClient Client(string? role)
    {
        var client = _host.CreateClient();
        return role is null ? TestSignIn.Anonymous(client) : TestSignIn.AsRole(client, role);
    }

    // Static files, and in Development ASP.NET Core's own fallback that serves them from the projects (never mapped in
    // production, and under the Viewer fallback policy where it is).
    static bool IsStaticAsset(RouteEndpoint endpoint) =>
        endpoint.Metadata.Any(m => m.GetType().Name == "StaticAssetDescriptor") || endpoint.DisplayName == "Fallback {**path:file}";

    [Fact]
    public void Every_endpoint_names_who_may_use_it_and_only_the_listed_ones_are_anonymous()
    {
        var endpoints = AppEndpoints.All(_host.Services);
        var unruled = endpoints.Where(e => !IsStaticAsset(e) && e.Metadata.GetMetadata<IAuthorizeData>() is null && e.Metadata.GetMetadata<IAllowAnonymous>() is null)
            .Select(e => e.DisplayName).ToList();
        var anonymous = endpoints.Where(e => e.Metadata.GetMetadata<IAllowAnonymous>() is not null && !IsStaticAsset(e))
            .Select(e => e.RoutePattern.RawText ?? "")
            .Where(p => !AnonymousPatterns.Any(a => p.TrimStart('/').StartsWith(a.TrimStart('/'), StringComparison.Ordinal)))
            .ToList();

        Assert.True(endpoints.Count(e => !IsStaticAsset(e)) > 30, $"only {endpoints.Count} endpoints found");
        Assert.Empty(unruled);
        Assert.Empty(anonymous);
    }

    [Fact]
    public async Task The_circuit_hub_is_for_viewers_and_up_and_anyone_else_gets_no_circuit()
    {
        var hub = AppEndpoints.All(_host.Services)
            .Where(e => (e.RoutePattern.RawText ?? "").TrimStart('/').StartsWith("_blazor", StringComparison.Ordinal)).ToList();
        var results = new List<string>();
        var expected = new List<string>();
        foreach (var role in Roles.Append(TestSignIn.NoRole).Append(null))
        {
            // Negotiating is the first step of every circuit: without it no websocket is opened.
            using var response = await Client(role).PostAsync("/_blazor/negotiate?negotiateVersion=1", null);
            results.Add($"{role ?? "anonymous"} {(int)response.StatusCode}");
            expected.Add($"{role ?? "anonymous"} {(role is null ? 401 : role == TestSignIn.NoRole ? 403 : 200)}");
        }

        Assert.NotEmpty(hub);
        Assert.All(hub, e => Assert.Equal([DashboardRoles.Viewer], e.Metadata.GetOrderedMetadata<IAuthorizeData>().Select(a => a.Policy)));
        Assert.Equal(expected, results);
    }

    /// <summary>The forms each page component accepts, from its [SupplyParameterFromForm] properties.</summary>
    static IEnumerable<(Type Page, string Form)> PageForms() =>
        typeof(IfiDashboard.Client.Routes).Assembly.GetTypes()
            .Where(t => t.GetCustomAttributes<RouteAttribute>().Any())
            .SelectMany(t => t.GetProperties(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)
                .Select(p => p.GetCustomAttribute<SupplyParameterFromFormAttribute>()?.FormName)
                .OfType<string>()
                .Select(form => (t, form)));

    [Fact]
    public void Every_form_a_page_accepts_has_a_role_and_every_role_rule_names_a_real_form()
    {
        var forms = PageForms().Select(f => f.Form).ToHashSet();

        Assert.True(forms.Count >= 6, $"only {forms.Count} forms found");
        var withoutRole = forms.Where(f => !DashboardPages.FormRoles.ContainsKey(f)).ToList();
        var withoutForm = DashboardPages.FormRoles.Keys.Where(f => !forms.Contains(f)).ToList();
        Assert.Empty(withoutRole);
        Assert.Empty(withoutForm);
    }

    [Fact]
    public async Task Every_role_reads_every_page_and_anonymous_or_roleless_people_are_refused()
    {
        var id = _instanceId.ToString(System.Globalization.CultureInfo.InvariantCulture);
        var pages = AppEndpoints.Pages(_host.Services).Select(e => (Path: AppEndpoints.PathOf(e.RoutePattern, id), Least: LeastRoleToRead(e)))
            .Distinct().ToList();
        var results = new List<string>();
        var expected = new List<string>();
        foreach (var (path, least) in pages)
        {
            foreach (var role in Roles)
            {
                results.Add($"{path} {role} {(int)(await Client(role).GetAsync(path)).StatusCode}");
                expected.Add($"{path} {role} {(Array.IndexOf(Roles, role) >= Array.IndexOf(Roles, least) ? 200 : 403)}");
            }
            results.Add($"{path} anonymous {(int)(await Client(null).GetAsync(path)).StatusCode}");
            results.Add($"{path} {TestSignIn.NoRole} {(int)(await Client(TestSignIn.NoRole).GetAsync(path)).StatusCode}");
            expected.AddRange([$"{path} anonymous 401", $"{path} {TestSignIn.NoRole} 403"]);
        }

        Assert.True(pages.Count >= 9, $"only {pages.Count} pages found");
        Assert.Contains(("/changes", DashboardRoles.Viewer), pages);
        Assert.Contains(("/reports/evidence", DashboardRoles.Administrator), pages);
        Assert.Equal(expected, results);
    }

    /// <summary>A Viewer reads a page unless the page names a higher role of its own (the audit log: Administrators).</summary>
    static string LeastRoleToRead(RouteEndpoint page) =>
        page.Metadata.GetOrderedMetadata<IAuthorizeData>().Select(a => a.Policy).OfType<string>()
            .Where(p => Roles.Contains(p)).OrderBy(p => Array.IndexOf(Roles, p)).LastOrDefault() ?? DashboardRoles.Viewer;

    [Fact]
    public async Task Each_form_is_accepted_from_its_role_up_and_refused_below_it_without_changing_anything()
    {
        var pathOf = AppEndpoints.Pages(_host.Services)
            .GroupBy(e => e.Metadata.GetMetadata<Microsoft.AspNetCore.Components.Endpoints.ComponentTypeMetadata>()!.Type)
            .ToDictionary(g => g.Key, g => AppEndpoints.PathOf(g.First().RoutePattern, _instanceId.ToString(System.Globalization.CultureInfo.InvariantCulture)));
        var results = new List<string>();
        var expected = new List<string>();
        foreach (var (page, form) in PageForms().Distinct())
        {
            var path = pathOf[page];
            var least = Array.IndexOf(Roles, DashboardPages.FormRoles[form]);
            foreach (var (role, index) in Roles.Select((r, i) => (r, i)))
            {
                var client = Client(role);
                var token = await TestSignIn.FormTokenAsync(client);
                var before = await StoreDump.AllTextAsync(_host.Services);
                // Only the form's name and token: an allowed post is answered (with its validation messages), a
                // refused one never reaches the page.
                using var response = await client.PostAsync(path, new FormUrlEncodedContent(new Dictionary<string, string>
                {
                    [DashboardPages.FormNameField] = form, ["__RequestVerificationToken"] = token,
                }));
                var refused = response.StatusCode is HttpStatusCode.Forbidden or HttpStatusCode.Unauthorized;
                var unchanged = before == await StoreDump.AllTextAsync(_host.Services);
                results.Add($"{form} on {path} as {role}: {(refused ? "refused" : "accepted")}{(refused && !unchanged ? ", store changed" : "")}");
                expected.Add($"{form} on {path} as {role}: {(index >= least ? "accepted" : "refused")}");
            }
        }

        Assert.Equal(expected, results);
    }

    /// <summary>Forms posted to an endpoint of their own rather than to a page (the remediation pack), each naming a role.</summary>
    IEnumerable<(string Path, string Least)> EndpointForms() =>
        AppEndpoints.All(_host.Services)
            .Where(e => AppEndpoints.MethodsOf(e).Contains("POST") && e.Metadata.GetMetadata<RequiredScope>() is null
                        && e.Metadata.GetMetadata<Microsoft.AspNetCore.Components.Endpoints.ComponentTypeMetadata>() is null)
            .Select(e => (Path: AppEndpoints.PathOf(e.RoutePattern, "1"),
                Least: e.Metadata.GetOrderedMetadata<IAuthorizeData>().Select(a => a.Policy).LastOrDefault(p => Roles.Contains(p))))
            .Where(f => f.Least is not null)
            .Select(f => (f.Path, f.Least!));

    [Fact]
    public async Task Each_form_endpoint_is_accepted_from_its_role_up_and_refused_below_it_without_changing_anything()
    {
        var forms = EndpointForms().ToList();
        var results = new List<string>();
        var expected = new List<string>();
        foreach (var (path, least) in forms)
        {
            foreach (var (role, index) in Roles.Select((r, i) => (r, i)))
            {
                var client = Client(role);
                var token = await TestSignIn.FormTokenAsync(client);
                var before = await StoreDump.AllTextAsync(_host.Services);
                using var response = await client.PostAsync(path, new FormUrlEncodedContent(new Dictionary<string, string>
                {
                    ["instance"] = _instanceId.ToString(System.Globalization.CultureInfo.InvariantCulture),
                    ["__RequestVerificationToken"] = token,
                }));
                var refused = response.StatusCode is HttpStatusCode.Forbidden or HttpStatusCode.Unauthorized;
                var unchanged = before == await StoreDump.AllTextAsync(_host.Services);
                results.Add($"{path} as {role}: {(refused ? "refused" : "accepted")}{(refused && !unchanged ? ", store changed" : "")}");
                expected.Add($"{path} as {role}: {(index >= Array.IndexOf(Roles, least) ? "accepted" : "refused")}");
            }
        }

        Assert.Contains(forms, f => f.Path == "/remediation/pack");
        Assert.Equal(expected, results);
    }

    [Fact]
    public async Task A_form_that_no_page_declares_is_refused_even_to_an_administrator()
    {
        var client = Client(DashboardRoles.Administrator);
        var token = await TestSignIn.FormTokenAsync(client);

        using var response = await client.PostAsync("/policy", new FormUrlEncodedContent(new Dictionary<string, string>
        {
            [DashboardPages.FormNameField] = "drop-everything", ["__RequestVerificationToken"] = token,
        }));

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
    }

    [Fact]
    public async Task Each_api_endpoint_admits_a_user_of_its_scopes_role_and_refuses_the_others_without_changing_anything()
    {
        var api = AppEndpoints.All(_host.Services)
            .Where(e => e.Metadata.GetMetadata<RequiredScope>() is not null)
            .SelectMany(e => AppEndpoints.MethodsOf(e).Select(method => (Endpoint: e, Method: method)))
            .ToList();
        var results = new List<string>();
        var expected = new List<string>();
        foreach (var (endpoint, method) in api)
        {
            var scope = endpoint.Metadata.GetMetadata<RequiredScope>()!.Scope;
            var path = AppEndpoints.PathOf(endpoint.RoutePattern, "999999");
            foreach (var role in Roles.Append(TestSignIn.NoRole).Append(null))
            {
                var before = await StoreDump.AllTextAsync(_host.Services);
                using var request = new HttpRequestMessage(new HttpMethod(method), path);
                request.Headers.Accept.ParseAdd("application/json");
                if (method is "POST" or "PUT" or "PATCH") request.Content = new StringContent("{}", Encoding.UTF8, "application/json");
                using var response = await Client(role).SendAsync(request);
                var status = response.StatusCode switch
                {
                    HttpStatusCode.Unauthorized => "401",
                    HttpStatusCode.Forbidden => "403",
                    _ => "admitted",
                };
                var unchanged = before == await StoreDump.AllTextAsync(_host.Services);
                var isProblem = response.Content.Headers.ContentType?.MediaType == "application/problem+json";
                results.Add($"{method} {path} as {role ?? "anonymous"}: {status}{(status != "admitted" && (!unchanged || !isProblem) ? " (changed or no problem document)" : "")}");
                var allowed = role is not null && role != TestSignIn.NoRole && ApiScopes.RoleFor(scope) is { } needed
                              && Array.IndexOf(Roles, role) >= Array.IndexOf(Roles, needed);
                expected.Add($"{method} {path} as {role ?? "anonymous"}: {(allowed ? "admitted" : role is null ? "401" : "403")}");
            }
        }

        Assert.True(api.Count >= 15, $"only {api.Count} API endpoints found");
        Assert.Equal(expected, results);
    }

    [Fact]
    public async Task An_api_key_keeps_its_scopes_as_its_only_rights_whatever_role_header_comes_with_it()
    {
        var client = Client(DashboardRoles.Administrator);
        client.DefaultRequestHeaders.Add("X-Api-Key", DashboardHost.ApiKey + "-not-a-stored-key");

        using var response = await client.GetAsync("/api/v1/instances");

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
    }
}
