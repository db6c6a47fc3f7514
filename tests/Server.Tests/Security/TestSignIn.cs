using System.Security.Claims;
using System.Text.Encodings.Web;
using IfiDashboard.Server.Security;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>
/// Signs test requests in as the role named in <see cref="RoleHeader"/> (<see cref="NoRole"/>: signed in with no
/// dashboard role; no header: anonymous), in place of OpenID Connect, whose real flow the Chromium test proves
/// (tests/E2E.Tests/SignIn). Everything after sign-in (policies, pages, API) is the server's own.
/// </summary>
public static class TestSignIn
{
    public const string Scheme = "Test";
    public const string RoleHeader = "X-Test-Role";
    public const string NoRole = "none";

    public static void Install(IWebHostBuilder builder) => builder.ConfigureServices(services =>
    {
        services.AddAuthentication().AddScheme<AuthenticationSchemeOptions, Handler>(Scheme, null);
        services.PostConfigure<DashboardSchemes>(schemes =>
        {
            schemes.User = Scheme;
            schemes.Challenge = null;
            schemes.SignOut = [];
        });
    });

    /// <summary>The client, signed in as <paramref name="role"/> for every request it sends.</summary>
    public static HttpClient As(this HttpClient client, string role)
    {
        client.DefaultRequestHeaders.Remove(RoleHeader);
        client.DefaultRequestHeaders.Add(RoleHeader, role);
        return client;
    }

    public static string UserName(string role) => $"test {role.ToLowerInvariant()}";

    /// <summary>An antiforgery token for the client's user. A token is the user's, not a page's: the policy page
    /// always has forms to take one from.</summary>
    public static async Task<string> FormTokenAsync(HttpClient client) =>
        new AngleSharp.Html.Parser.HtmlParser().ParseDocument(await client.GetStringAsync("/policy"))
            .QuerySelector("input[name=__RequestVerificationToken]")?.GetAttribute("value")
        ?? throw new Xunit.Sdk.XunitException("The policy page has no form token.");

    sealed class Handler(IOptionsMonitor<AuthenticationSchemeOptions> options, ILoggerFactory logger, UrlEncoder encoder)
        : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
    {
        protected override Task<AuthenticateResult> HandleAuthenticateAsync()
        {
            if (Request.Headers[RoleHeader].ToString() is not { Length: > 0 } role)
                return Task.FromResult(AuthenticateResult.NoResult());
            List<Claim> claims = [new(ClaimTypes.Name, UserName(role)), new(SignInClaims.Method, TestSignIn.Scheme)];
            if (role != NoRole) claims.Add(new Claim(ClaimTypes.Role, role));
            var principal = new ClaimsPrincipal(new ClaimsIdentity(claims, TestSignIn.Scheme));
            return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(principal, TestSignIn.Scheme)));
        }
    }
}
