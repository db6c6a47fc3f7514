using System.Security.Claims;
using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>
/// Stands in for the dashboard's sign-in (OpenID Connect, trusted proxy) until it is part of the server: a request
/// carrying <see cref="UserHeader"/> is signed in as that user with the roles in <see cref="RolesHeader"/>; any other
/// request is anonymous and challenged with 401. Only the tests' servers register it.
/// </summary>
public sealed class TestSignIn(IOptionsMonitor<AuthenticationSchemeOptions> options, ILoggerFactory logger, UrlEncoder encoder)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "TestSignIn";
    public const string UserHeader = "X-Test-User";
    public const string RolesHeader = "X-Test-Roles";

    public static void Register(IServiceCollection services)
    {
        services.AddAuthentication().AddScheme<AuthenticationSchemeOptions, TestSignIn>(SchemeName, null);
        services.Configure<AuthenticationOptions>(o => o.DefaultScheme = SchemeName);
    }

    /// <summary>Makes every request of <paramref name="client"/> come from this user with these roles.</summary>
    public static HttpClient As(HttpClient client, string user, params string[] roles)
    {
        client.DefaultRequestHeaders.Add(UserHeader, user);
        client.DefaultRequestHeaders.Add(RolesHeader, string.Join(',', roles));
        return client;
    }

    protected override Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        if (Request.Headers[UserHeader].ToString() is not { Length: > 0 } user)
            return Task.FromResult(AuthenticateResult.NoResult());
        var roles = Request.Headers[RolesHeader].ToString().Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var identity = new ClaimsIdentity([new Claim(ClaimTypes.Name, user), .. roles.Select(r => new Claim(ClaimTypes.Role, r))], SchemeName);
        return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(new ClaimsPrincipal(identity), SchemeName)));
    }
}
