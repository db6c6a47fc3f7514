using System.Security.Claims;
using System.Text.Encodings.Web;
using IfiDashboard.Server.Security;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>
/// Signs test requests in, in place of OpenID Connect (whose real flow the Chromium test runs, tests/E2E.Tests/SignIn):
/// a request carrying <see cref="UserHeader"/> is that user with the roles in <see cref="RolesHeader"/>; any other is
/// anonymous. Everything after sign-in (the default scheme, policies, pages, API keys) is the server's own.
/// </summary>
public sealed class TestSignIn(IOptionsMonitor<AuthenticationSchemeOptions> options, ILoggerFactory logger, UrlEncoder encoder)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "TestSignIn";
    public const string UserHeader = "X-Test-User";
    public const string RolesHeader = "X-Test-Roles";
    /// <summary>For <see cref="AsRole"/>: signed in, with no dashboard role.</summary>
    public const string NoRole = "none";

    /// <summary>Makes the test scheme the one that signs dashboard users in (ConfigureTestServices).</summary>
    public static void Register(IServiceCollection services)
    {
        services.AddAuthentication().AddScheme<AuthenticationSchemeOptions, TestSignIn>(SchemeName, null);
        services.PostConfigure<DashboardSchemes>(schemes =>
        {
            schemes.User = SchemeName;
            schemes.Challenge = null;
            schemes.SignOut = [];
        });
    }

    /// <summary>Makes every request of <paramref name="client"/> come from this user with these roles.</summary>
    public static HttpClient As(HttpClient client, string user, params string[] roles)
    {
        Anonymous(client);
        client.DefaultRequestHeaders.Add(UserHeader, user);
        client.DefaultRequestHeaders.Add(RolesHeader, string.Join(',', roles));
        return client;
    }

    /// <summary>As <see cref="UserName"/> of <paramref name="role"/>, holding that role (none for <see cref="NoRole"/>).</summary>
    public static HttpClient AsRole(HttpClient client, string role) =>
        As(client, UserName(role), role == NoRole ? [] : [role]);

    public static HttpClient Anonymous(HttpClient client)
    {
        client.DefaultRequestHeaders.Remove(UserHeader);
        client.DefaultRequestHeaders.Remove(RolesHeader);
        return client;
    }

    public static string UserName(string role) => $"test {role.ToLowerInvariant()}";

    /// <summary>An antiforgery token for the client's user. A token is the user's, not a page's: the policy page
    /// always has forms to take one from.</summary>
    public static async Task<string> FormTokenAsync(HttpClient client) =>
        new AngleSharp.Html.Parser.HtmlParser().ParseDocument(await client.GetStringAsync("/policy"))
            .QuerySelector("input[name=__RequestVerificationToken]")?.GetAttribute("value")
        ?? throw new Xunit.Sdk.XunitException("The policy page has no form token.");

    protected override Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        if (Request.Headers[UserHeader].ToString() is not { Length: > 0 } user)
            return Task.FromResult(AuthenticateResult.NoResult());
        var roles = Request.Headers[RolesHeader].ToString().Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var identity = new ClaimsIdentity([new Claim(ClaimTypes.Name, user), .. roles.Select(r => new Claim(ClaimTypes.Role, r))], SchemeName);
        return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(new ClaimsPrincipal(identity), SchemeName)));
    }
}
