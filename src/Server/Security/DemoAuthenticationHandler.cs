using System.Security.Claims;
using System.Text.Encodings.Web;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Security;

/// <summary>
/// The demo's sign-in: every request is the demo administrator, and every page says so. Registered only with
/// <c>--demo</c>, which serves a simulated fleet on loopback.
/// </summary>
public sealed class DemoAuthenticationHandler(IOptionsMonitor<AuthenticationSchemeOptions> options, ILoggerFactory logger, UrlEncoder encoder)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "Demo";
    public const string UserName = "demo administrator";

    /// <summary>Makes every request the demo administrator's (the demo, and test hosts that play it).</summary>
    public static void SignEveryoneIn(AuthenticationBuilder authentication)
    {
        authentication.AddScheme<AuthenticationSchemeOptions, DemoAuthenticationHandler>(SchemeName, null);
        authentication.Services.Configure<DashboardSchemes>(schemes =>
        {
            schemes.User = SchemeName;
            schemes.Challenge = SchemeName;
            schemes.SignOut = [];
        });
    }

    protected override Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        var identity = new ClaimsIdentity(
        [
            new Claim(ClaimTypes.Name, UserName),
            new Claim(ClaimTypes.Role, DashboardRoles.Administrator),
            new Claim(SignInClaims.Method, SignInClaims.Demo),
        ], SchemeName);
        return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(new ClaimsPrincipal(identity), SchemeName)));
    }
}
