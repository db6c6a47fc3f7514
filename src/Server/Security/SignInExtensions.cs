using System.Security.Claims;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Demo;
using IfiDashboard.Server.Composition;
using IfiDashboard.Shared.Hosting;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authentication.OpenIdConnect;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Security;

/// <summary>
/// Sign-in for the dashboard: OpenID Connect (cookie session, code flow with PKCE), a trusted reverse proxy's identity
/// header, or the demo's automatic administrator; and the role policies every page and endpoint names
/// (docs/security.md). Nothing is anonymous by default: with no sign-in configured the server starts, says so, and
/// serves only health checks and static files.
/// </summary>
public static class SignInExtensions
{
    public const string CookieScheme = CookieAuthenticationDefaults.AuthenticationScheme;
    public const string OidcScheme = OpenIdConnectDefaults.AuthenticationScheme;
    /// <summary>The callback path the identity provider redirects back to; register it with the provider.</summary>
    public const string CallbackPath = "/signin-oidc";
    public const string SignedOutCallbackPath = "/signout-callback-oidc";
    /// <summary>How long a sign-in lasts without use (the cookie slides), and an open circuit at most.</summary>
    public static readonly TimeSpan SessionLifetime = TimeSpan.FromHours(8);

    public static WebApplicationBuilder AddIfiSignIn(this WebApplicationBuilder builder, bool demo)
    {
        var services = builder.Services;
        services.AddIfiModule(IfiModuleNames.SignIn, IfiModuleNames.Store);
        var settings = builder.Configuration.GetSection(SignInOptions.Section).Get<SignInOptions>() ?? new SignInOptions();
        if (settings.Problems().FirstOrDefault() is { } problem)
            throw new InvalidSettingException(SignInOptions.Section, problem + " See docs/security.md.");
        if (ForwardedClient.UnsafeForwarding(builder.Configuration, settings) is { } unsafeForwarding)
            throw new InvalidSettingException("Auth:Proxy", unsafeForwarding);
        services.AddOptions<SignInOptions>().Bind(builder.Configuration.GetSection(SignInOptions.Section));

        var authentication = services.AddAuthentication(options =>
        {
            options.DefaultScheme = DashboardAuthenticationHandler.SchemeName;
            options.AddScheme<DashboardAuthenticationHandler>(DashboardAuthenticationHandler.SchemeName, null);
        });
        var schemes = new DashboardSchemes();
        if (demo)
            DemoAuthenticationHandler.SignEveryoneIn(authentication);
        else if (settings.OidcConfigured)
        {
            AddOpenIdConnect(authentication, settings);
            services.AddScoped<Microsoft.AspNetCore.Components.Authorization.AuthenticationStateProvider, CircuitSessionRevalidation>();
            schemes = new DashboardSchemes { User = CookieScheme, Challenge = OidcScheme, SignOut = [CookieScheme, OidcScheme] };
        }
        else if (settings.ProxyConfigured)
        {
            authentication.AddScheme<AuthenticationSchemeOptions, TrustedProxyAuthenticationHandler>(TrustedProxyAuthenticationHandler.SchemeName, null);
            schemes = new DashboardSchemes { User = TrustedProxyAuthenticationHandler.SchemeName };
            services.AddIfiForwardedClient();
        }
        else
            services.AddHostedService<SignInNotConfiguredNotice>();
        if (!demo)
            services.Configure<DashboardSchemes>(configured =>
            {
                configured.User = schemes.User;
                configured.Challenge = schemes.Challenge;
                configured.SignOut = schemes.SignOut;
            });

        services.AddSingleton<IAuthorizationHandler, DashboardRoleHandler>();
        var authorization = services.AddAuthorizationBuilder();
        foreach (var role in DashboardRoleChecks.Ordered)
            authorization.AddPolicy(role, policy => policy.AddRequirements(new DashboardRoleRequirement(role)));
        authorization.AddPolicy(DashboardPages.Policy, policy => policy.AddRequirements(new DashboardPageRequirement()));
        // Anything without a rule of its own (an endpoint someone forgot, a 404, middleware such as the API
        // reference page) needs at least a Viewer.
        authorization.SetFallbackPolicy(new AuthorizationPolicyBuilder().AddRequirements(new DashboardFallbackRequirement()).Build());
        return builder;
    }

    static void AddOpenIdConnect(AuthenticationBuilder authentication, SignInOptions settings)
    {
        authentication.AddCookie(CookieScheme, options =>
        {
            options.Cookie.Name = "ifi.session";
            options.Cookie.HttpOnly = true;
            // Lax: the cookie rides the provider's redirect back (a top-level GET), never a cross-site POST or fetch,
            // so the API's writes cannot be forged from another site with it.
            options.Cookie.SameSite = SameSiteMode.Lax;
            options.Cookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
            options.ExpireTimeSpan = SessionLifetime;
            options.SlidingExpiration = true;
            options.Events.OnValidatePrincipal = SessionRevalidation.ValidateCookieAsync;
        });
        authentication.AddOpenIdConnect(OidcScheme, options =>
        {
            var oidc = settings.Oidc;
            options.SignInScheme = CookieScheme;
            options.Authority = oidc.Authority;
            options.ClientId = oidc.ClientId;
            options.ClientSecret = oidc.ClientSecret;
            options.RequireHttpsMetadata = oidc.RequireHttpsMetadata;
            options.ResponseType = "code";
            // The code comes back in the query of a GET, so the correlation cookies need no SameSite=None.
            options.ResponseMode = "query";
            options.UsePkce = true;
            options.SaveTokens = false;
            options.MapInboundClaims = false;
            options.CallbackPath = CallbackPath;
            options.SignedOutCallbackPath = SignedOutCallbackPath;
            options.Scope.Clear();
            foreach (var scope in new[] { "openid", "profile" }.Concat(oidc.Scopes).Distinct()) options.Scope.Add(scope);
            options.CorrelationCookie.SameSite = SameSiteMode.Lax;
            options.CorrelationCookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
            options.NonceCookie.SameSite = SameSiteMode.Lax;
            options.NonceCookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
            options.TokenValidationParameters.NameClaimType = oidc.NameClaim;
            // Only roles mapped from Auth:Roles count, never a raw claim value that happens to read "Administrator".
            options.TokenValidationParameters.RoleClaimType = ClaimTypes.Role;
            options.Events.OnTokenValidated = context =>
            {
                if (context.Principal?.Identity is not ClaimsIdentity identity) return Task.CompletedTask;
                var values = identity.FindAll(oidc.RoleClaim).Select(c => c.Value).ToList();
                // The mapping in force now (configuration reloads), as the session's later checks use it.
                var roles = context.HttpContext.RequestServices.GetRequiredService<IOptionsMonitor<SignInOptions>>().CurrentValue
                    .RolesFor(values).ToList();
                if (OidcIdentity(identity) is not { } person)
                {
                    context.Fail("The identity provider's ID token names no subject (sub).");
                    return Task.CompletedTask;
                }
                foreach (var role in roles) identity.AddClaim(new Claim(ClaimTypes.Role, role));
                identity.AddClaim(new Claim(SignInClaims.Method, SignInClaims.OpenIdConnect));
                identity.AddClaim(new Claim(SignInClaims.Identity, person));
                var actor = AuditActors.Of(context.Principal, context.HttpContext.Connection.RemoteIpAddress?.ToString());
                return context.HttpContext.RequestServices.GetRequiredService<AuditLog>()
                    .RecordSignInAsync(actor, roles, context.HttpContext.RequestAborted);
            };
            // No ID token is kept (SaveTokens is off), so the provider learns which client signs out from client_id,
            // and may then send the browser back to the registered post-logout address.
            options.Events.OnRedirectToIdentityProviderForSignOut = context =>
            {
                context.ProtocolMessage.ClientId = oidc.ClientId;
                return Task.CompletedTask;
            };
            options.Events.OnRemoteFailure = async context =>
            {
                // A failed or cancelled sign-in is a 4xx page naming what happened, not an exception page.
                context.HandleResponse();
                var actor = new AuditActor(AuditActors.Anonymous, context.HttpContext.Connection.RemoteIpAddress?.ToString());
                await context.HttpContext.RequestServices.GetRequiredService<AuditLog>()
                    .CountRefusalAsync(AuditActions.SignInFailed, actor, SignInFailureReason(context.Failure), context.HttpContext.RequestAborted);
                await DashboardAuthenticationHandler.WritePageAsync(context.HttpContext, StatusCodes.Status401Unauthorized,
                    "Sign-in failed", $"The identity provider's answer was not accepted: {context.Failure?.Message} Try signing in again.");
            };
        });
    }

    /// <summary>
    /// Why a sign-in was refused, in a few fixed words: the failure's message can carry text of the sender's choosing
    /// (the <c>error</c> of a forged callback), and the count keeps one row per reason.
    /// </summary>
    static string SignInFailureReason(Exception? failure) => failure?.Message switch
    {
        null => "cancelled",
        var m when m.Contains("message.State", StringComparison.Ordinal) => "state missing, forged or expired",
        var m when m.StartsWith("Correlation failed", StringComparison.Ordinal) => "correlation cookie missing",
        var m when m.StartsWith("Message contains error", StringComparison.Ordinal) => "the provider answered with an error",
        _ => failure.GetType().Name,
    };

    /// <summary>
    /// The person an ID token names: Entra ID's <c>oid</c> when present (its <c>sub</c> differs from one application to
    /// the next), else <c>sub</c>, at the token's issuer. Never the display name, which people change and share.
    /// </summary>
    static string? OidcIdentity(ClaimsIdentity identity)
    {
        if ((identity.FindFirst("oid") ?? identity.FindFirst("sub")) is not { Value.Length: > 0 } subject)
            return null;
        var issuer = identity.FindFirst("iss")?.Value is { Length: > 0 } iss ? iss : subject.Issuer;
        return ChangeAuthor.Identity(subject.Value, issuer);
    }

    /// <summary><c>GET /signin</c> starts signing in; <c>POST /signout</c> (a form with its antiforgery token) ends it.</summary>
    public static WebApplication MapIfiSignIn(this WebApplication app)
    {
        app.MapGet(SignInClaims.SignInPath, (string? returnUrl, IOptions<DashboardSchemes> schemes) =>
                schemes.Value.Challenge is { } scheme
                    ? Results.Challenge(new AuthenticationProperties { RedirectUri = LocalOrRoot(returnUrl) }, [scheme])
                    : Results.Redirect("/"))
            .AllowAnonymous().ExcludeFromDescription();
        // Ends the dashboard's session. The provider's own session ends on a link of the page shown: the pages' CSP
        // (form-action 'self') rightly stops a form post from being redirected to another site. Demo and proxy
        // sessions are not the dashboard's to end: signing out there just returns to the overview.
        app.MapPost(SignInClaims.SignOutPath, async (HttpContext context, IOptions<DashboardSchemes> schemes) =>
            {
                if (!schemes.Value.SignOut.Contains(CookieScheme))
                    return Results.Redirect("/");
                await context.SignOutAsync(CookieScheme);
                return new SignedOutPage();
            })
            .WithMetadata(new RequireAntiforgeryTokenAttribute())
            .RequireAuthorization(DashboardRoles.Viewer).ExcludeFromDescription();
        // Only OpenID Connect has a provider's session to end; in every other mode this returns to the overview.
        app.MapGet(ProviderSignOutPath, (IOptions<DashboardSchemes> schemes) => schemes.Value.SignOut.Contains(OidcScheme)
                ? Results.SignOut(new AuthenticationProperties { RedirectUri = "/" }, [OidcScheme])
                : Results.Redirect("/"))
            .AllowAnonymous().ExcludeFromDescription();
        return app;
    }

    public const string ProviderSignOutPath = "/signout/provider";

    sealed class SignedOutPage : IResult
    {
        public Task ExecuteAsync(HttpContext httpContext) => DashboardAuthenticationHandler.WritePageAsync(httpContext,
            StatusCodes.Status200OK, "Signed out", "You are signed out of IfiDashboard.",
            ("Sign out of the identity provider too", ProviderSignOutPath));
    }

    /// <summary>
    /// A path on this site, else the overview. Browsers drop tabs and line breaks from a URL, so <c>/\t/evil.example</c>
    /// would be followed as <c>//evil.example</c>; a control character also cannot go into a Location header.
    /// </summary>
    static string LocalOrRoot(string? url) =>
        url is { Length: > 0 } && url[0] == '/' && !url.Any(char.IsControl)
        && !url.StartsWith("//", StringComparison.Ordinal) && !url.StartsWith("/\\", StringComparison.Ordinal) ? url : "/";

    sealed class SignInNotConfiguredNotice(ILogger<SignInNotConfiguredNotice> logger) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            logger.LogWarning(DashboardAuthenticationHandler.NotConfiguredAdvice);
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}

/// <summary>Which registered schemes sign dashboard users in, challenge them and sign them out (none: not configured).</summary>
public sealed class DashboardSchemes
{
    public string? User { get; set; }
    public string? Challenge { get; set; }
    public IReadOnlyList<string> SignOut { get; set; } = [];
}
