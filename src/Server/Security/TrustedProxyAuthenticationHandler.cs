using System.Security.Claims;
using System.Text.Encodings.Web;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Security;

/// <summary>
/// Signs in whoever a trusted reverse proxy (IIS with Windows authentication, an authenticating gateway) names in
/// <c>Auth:Proxy:UserHeader</c>, with roles mapped from the user name and <c>Auth:Proxy:RolesHeader</c>. The headers
/// are believed only from <c>KnownProxies</c>/<c>KnownNetworks</c>: from any other address they are refused, since
/// anyone can send them.
/// </summary>
public sealed class TrustedProxyAuthenticationHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory logger,
    UrlEncoder encoder,
    IOptionsMonitor<SignInOptions> signIn)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "TrustedProxy";

    protected override Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        var settings = signIn.CurrentValue;
        var proxy = settings.Proxy;
        var user = Request.Headers[proxy.UserHeader!].ToString().Trim();
        var rolesHeader = proxy.RolesHeader is { Length: > 0 } ? Request.Headers[proxy.RolesHeader].ToString() : "";
        if (user.Length == 0 && rolesHeader.Length == 0)
            return Task.FromResult(AuthenticateResult.NoResult());
        var remote = Context.Connection.RemoteIpAddress;
        if (!proxy.IsTrusted(remote))
        {
            Logger.LogWarning("Refused the identity header {Header} from {Remote}, which is not a known proxy (Auth:Proxy:KnownProxies, KnownNetworks).",
                proxy.UserHeader, remote);
            return Task.FromResult(AuthenticateResult.Fail("The identity header came from an address that is not a known proxy."));
        }
        if (user.Length == 0)
            return Task.FromResult(AuthenticateResult.NoResult());

        var values = rolesHeader.Split([',', ';'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Append(user);
        List<Claim> claims =
        [
            new(ClaimTypes.Name, user),
            new(SignInClaims.Method, SignInClaims.TrustedProxy),
            // The proxy vouches for the user name alone; Windows and most gateways ignore its case.
            new(SignInClaims.Identity, ChangeAuthor.Identity(user.ToLowerInvariant(), "proxy")),
            .. settings.RolesFor(values).Select(role => new Claim(ClaimTypes.Role, role)),
        ];
        var principal = new ClaimsPrincipal(new ClaimsIdentity(claims, SchemeName));
        return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(principal, SchemeName)));
    }
}
