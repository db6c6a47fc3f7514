using System.Security.Claims;
using IfiDashboard.Server.Security;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>
/// A session keeps the roles the current <c>Auth:Roles</c> gives it: the cookie is refused once they no longer hold,
/// and an open circuit ends then or after the session's lifetime.
/// </summary>
public sealed class SessionRevalidationTests
{
    /// <summary>Options whose current value a test changes, as a reloaded configuration does.</summary>
    sealed class ReloadedOptions(SignInOptions value) : IOptionsMonitor<SignInOptions>
    {
        public SignInOptions CurrentValue { get; set; } = value;
        public SignInOptions Get(string? name) => CurrentValue;
        public IDisposable? OnChange(Action<SignInOptions, string?> listener) => null;
    }

    static SignInOptions Mapping(string role, string group) => new()
    {
        Oidc = { Authority = "https://login.bank.test", ClientId = "ifi" },
        Roles = new(StringComparer.OrdinalIgnoreCase) { [role] = [group] },
    };

    /// <summary>Signed in through the provider as a member of dba-team, which made an Operator at sign-in.</summary>
    static ClaimsPrincipal DbaTeamOperator(string method = SignInClaims.OpenIdConnect, bool withIdentity = true) => new(new ClaimsIdentity(
    [
        new Claim("name", "ops@bank.test"), new Claim("roles", "dba-team"),
        new Claim(ClaimTypes.Role, DashboardRoles.Operator), new Claim(SignInClaims.Method, method),
        .. withIdentity ? [new Claim(SignInClaims.Identity, "ops-sub@https://login.bank.test")] : Array.Empty<Claim>(),
    ], "oidc", "name", ClaimTypes.Role));

    [Fact]
    public void Roles_hold_while_the_mapping_grants_exactly_them()
    {
        Assert.True(SessionRevalidation.RolesStillHold(DbaTeamOperator(), Mapping(DashboardRoles.Operator, "dba-team")));
        // Taken out of Operator, or made Administrator: either way not the roles signed in with.
        Assert.False(SessionRevalidation.RolesStillHold(DbaTeamOperator(), Mapping(DashboardRoles.Operator, "other-team")));
        Assert.False(SessionRevalidation.RolesStillHold(DbaTeamOperator(), Mapping(DashboardRoles.Administrator, "dba-team")));
        // The proxy's identity is made per request from its header: nothing carried to check.
        Assert.True(SessionRevalidation.RolesStillHold(DbaTeamOperator(SignInClaims.TrustedProxy), Mapping(DashboardRoles.Operator, "other-team")));
    }

    [Fact]
    public async Task The_cookie_is_refused_once_its_roles_no_longer_hold()
    {
        var options = new ReloadedOptions(Mapping(DashboardRoles.Operator, "dba-team"));
        var http = new DefaultHttpContext { RequestServices = new ServiceCollection().AddSingleton<IOptionsMonitor<SignInOptions>>(options).BuildServiceProvider() };
        CookieValidatePrincipalContext Validate() => new(http,
            new AuthenticationScheme(SignInExtensions.CookieScheme, null, typeof(CookieAuthenticationHandler)),
            new CookieAuthenticationOptions(), new AuthenticationTicket(DbaTeamOperator(), SignInExtensions.CookieScheme));

        var kept = Validate();
        await SessionRevalidation.ValidateCookieAsync(kept);
        options.CurrentValue = Mapping(DashboardRoles.Operator, "other-team");
        var refused = Validate();
        await SessionRevalidation.ValidateCookieAsync(refused);

        Assert.NotNull(kept.Principal);
        Assert.Null(refused.Principal);
    }

    [Fact]
    public async Task A_cookie_from_before_identities_were_recorded_is_refused_so_the_user_signs_in_again()
    {
        var options = new ReloadedOptions(Mapping(DashboardRoles.Operator, "dba-team"));
        var http = new DefaultHttpContext { RequestServices = new ServiceCollection().AddSingleton<IOptionsMonitor<SignInOptions>>(options).BuildServiceProvider() };
        var withoutIdentity = new CookieValidatePrincipalContext(http,
            new AuthenticationScheme(SignInExtensions.CookieScheme, null, typeof(CookieAuthenticationHandler)),
            new CookieAuthenticationOptions(), new AuthenticationTicket(DbaTeamOperator(withIdentity: false), SignInExtensions.CookieScheme));

        await SessionRevalidation.ValidateCookieAsync(withoutIdentity);

        Assert.Null(withoutIdentity.Principal);
        Assert.True(SessionRevalidation.StillHolds(DbaTeamOperator(SignInClaims.TrustedProxy, withIdentity: false), options.CurrentValue));
    }

    [Fact]
    public void An_open_circuit_ends_with_the_session_lifetime_or_when_its_roles_change()
    {
        var clock = new FakeTimeProvider(new DateTimeOffset(2026, 11, 24, 9, 0, 0, TimeSpan.Zero));
        var options = new ReloadedOptions(Mapping(DashboardRoles.Operator, "dba-team"));
        var circuit = new CircuitSessionRevalidation(NullLoggerFactory.Instance, options, clock);
        var otherCircuit = new CircuitSessionRevalidation(NullLoggerFactory.Instance, options, clock);

        clock.Advance(SignInExtensions.SessionLifetime - TimeSpan.FromMinutes(1));
        var nearTheEnd = circuit.StillValid(DbaTeamOperator());
        clock.Advance(TimeSpan.FromMinutes(1));
        var atTheEnd = circuit.StillValid(DbaTeamOperator());

        Assert.True(nearTheEnd);
        Assert.False(atTheEnd);
        var fresh = new CircuitSessionRevalidation(NullLoggerFactory.Instance, options, clock);
        Assert.True(fresh.StillValid(DbaTeamOperator()));
        options.CurrentValue = Mapping(DashboardRoles.Viewer, "dba-team");
        Assert.False(fresh.StillValid(DbaTeamOperator()));
        Assert.False(otherCircuit.StillValid(DbaTeamOperator()));
    }
}
