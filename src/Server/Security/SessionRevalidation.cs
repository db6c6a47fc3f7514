using System.Security.Claims;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Components.Authorization;
using Microsoft.AspNetCore.Components.Server;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Security;

/// <summary>
/// A signed-in session stays true to the roles <c>Auth:Roles</c> gives now, and a live page's circuit ends with the
/// session. Roles are mapped from the provider's claims once, at sign-in, and carried in the cookie; a changed mapping
/// (someone's group taken out of Operator) would otherwise hold until the cookie ran out, and an open circuit, which
/// never presents the cookie again, for as long as the tab stays open.
/// </summary>
public static class SessionRevalidation
{
    /// <summary>
    /// True when the dashboard roles the user carries are the ones <paramref name="options"/> gives its provider's role
    /// claims now. Only OpenID Connect sessions carry roles from sign-in; the proxy's and the demo's are made per request.
    /// </summary>
    public static bool RolesStillHold(ClaimsPrincipal user, SignInOptions options)
    {
        if (user.Identity is not ClaimsIdentity { IsAuthenticated: true } identity
            || identity.FindFirst(SignInClaims.Method)?.Value != SignInClaims.OpenIdConnect)
            return true;
        var granted = options.RolesFor(identity.FindAll(options.Oidc.RoleClaim).Select(c => c.Value));
        return granted.ToHashSet(StringComparer.Ordinal).SetEquals(identity.FindAll(ClaimTypes.Role).Select(c => c.Value));
    }

    /// <summary>
    /// True while a session is one the dashboard still signs in: its roles hold (<see cref="RolesStillHold"/>) and an
    /// OpenID Connect session carries the identity (issuer and subject) recorded since store migration 0020; a cookie
    /// issued before it signs in again, usually without a prompt, and so gets one.
    /// </summary>
    public static bool StillHolds(ClaimsPrincipal user, SignInOptions options) =>
        RolesStillHold(user, options)
        && (user.FindFirst(SignInClaims.Method)?.Value != SignInClaims.OpenIdConnect || user.FindFirst(SignInClaims.Identity) is not null);

    /// <summary>
    /// The cookie's check on every request: a session whose roles no longer hold is refused, so the request signs in
    /// again (with the provider's single sign-on, usually without a prompt) and gets the roles that hold now.
    /// </summary>
    public static Task ValidateCookieAsync(CookieValidatePrincipalContext context)
    {
        var options = context.HttpContext.RequestServices.GetRequiredService<IOptionsMonitor<SignInOptions>>().CurrentValue;
        if (context.Principal is { } user && !StillHolds(user, options))
            context.RejectPrincipal();
        return Task.CompletedTask;
    }
}

/// <summary>
/// An open live page's circuit checks its session every minute (the framework's revalidating provider): past the
/// session's lifetime since the circuit opened, or once its roles no longer hold, the circuit's user becomes
/// anonymous, and the live pages reload, which makes the browser present its cookie (and sign in again) afresh.
/// </summary>
public sealed class CircuitSessionRevalidation(ILoggerFactory loggers, IOptionsMonitor<SignInOptions> options, TimeProvider time)
    : RevalidatingServerAuthenticationStateProvider(loggers)
{
    readonly DateTimeOffset _opened = time.GetUtcNow();

    protected override TimeSpan RevalidationInterval => TimeSpan.FromMinutes(1);

    protected override Task<bool> ValidateAuthenticationStateAsync(AuthenticationState authenticationState, CancellationToken cancellationToken) =>
        Task.FromResult(StillValid(authenticationState.User));

    public bool StillValid(ClaimsPrincipal user) =>
        time.GetUtcNow() - _opened < SignInExtensions.SessionLifetime && SessionRevalidation.StillHolds(user, options.CurrentValue);
}
