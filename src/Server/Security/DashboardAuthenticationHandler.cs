using IfiDashboard.Shared.Security;
using System.Net;
using IfiDashboard.Server.Http;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Security;

/// <summary>
/// The default scheme: a request presenting an API key is the key's (its scopes are its rights); any other is the
/// signed-in user's (cookie, proxy header or demo). A refusal answers in the request's language: problem details
/// for the API and JSON, a short page for a browser, which is sent to sign in when it is not signed in yet.
/// </summary>
public sealed class DashboardAuthenticationHandler(IOptions<DashboardSchemes> schemes) : IAuthenticationHandler
{
    public const string SchemeName = "Dashboard";

    public const string NotConfiguredAdvice =
        "Sign-in is not configured, so the dashboard serves nobody: set Auth:Oidc:Authority, ClientId and ClientSecret " +
        "(OpenID Connect), or Auth:Proxy:UserHeader with Auth:Proxy:KnownProxies (a trusted reverse proxy); see docs/security.md.";

    HttpContext _context = null!;

    public Task InitializeAsync(AuthenticationScheme scheme, HttpContext context)
    {
        _context = context;
        return Task.CompletedTask;
    }

    public Task<AuthenticateResult> AuthenticateAsync()
    {
        if (ApiKeyAuthenticationHandler.IsPresented(_context.Request))
            return _context.AuthenticateAsync(ApiKeyAuthenticationHandler.SchemeName);
        return schemes.Value.User is { } user ? _context.AuthenticateAsync(user) : Task.FromResult(AuthenticateResult.NoResult());
    }

    public Task ChallengeAsync(AuthenticationProperties? properties)
    {
        if (WantsProblemDetails(_context.Request))
            return _context.ChallengeAsync(ApiKeyAuthenticationHandler.SchemeName, properties);
        if (schemes.Value.Challenge is { } challenge)
            return _context.ChallengeAsync(challenge, properties);
        return schemes.Value.User is null
            ? WritePageAsync(_context, StatusCodes.Status401Unauthorized, "Sign-in is not configured", NotConfiguredAdvice)
            : WritePageAsync(_context, StatusCodes.Status401Unauthorized, "Not signed in",
                "Nobody is signed in: reach the dashboard through the reverse proxy that signs you in.");
    }

    public Task ForbidAsync(AuthenticationProperties? properties)
    {
        if (_context.User.Identity?.AuthenticationType == ApiKeyAuthenticationHandler.SchemeName)
            return _context.ForbidAsync(ApiKeyAuthenticationHandler.SchemeName, properties);
        const string title = "Not allowed for your role";
        var detail = $"{_context.User.Identity?.Name ?? "You"} ({RoleOf(_context.User)}) may not do this: see docs/security.md for what each role may do.";
        return WantsProblemDetails(_context.Request)
            ? ApiProblems.WriteAsync(_context, StatusCodes.Status403Forbidden, title, detail)
            : WritePageAsync(_context, StatusCodes.Status403Forbidden, title, detail);
    }

    static string RoleOf(System.Security.Claims.ClaimsPrincipal user) =>
        DashboardRoleChecks.Ordered.LastOrDefault(user.IsInRole) ?? "no dashboard role";

    /// <summary>
    /// API paths, the Prometheus scrape path (a scraper sends no Accept that asks for JSON, and reads no sign-in page),
    /// a presented key, and clients that ask for JSON rather than a page.
    /// </summary>
    static bool WantsProblemDetails(HttpRequest request) =>
        request.Path.StartsWithSegments("/api/v1") || request.Path.StartsWithSegments("/openapi")
        || request.Path.StartsWithSegments(Observability.TelemetryExtensions.MetricsPath)
        || ApiKeyAuthenticationHandler.IsPresented(request)
        || (request.Headers.Accept.ToString() is var accept && accept.Contains("json", StringComparison.OrdinalIgnoreCase)
            && !accept.Contains("text/html", StringComparison.OrdinalIgnoreCase));

    /// <summary>A page of its own, outside the dashboard's layout: it is shown to people the layout must not serve.</summary>
    public static async Task WritePageAsync(HttpContext context, int status, string title, string message,
        (string Text, string Href)? link = null)
    {
        var (text, href) = link ?? ("Back to the overview", "/");
        context.Response.StatusCode = status;
        context.Response.ContentType = "text/html; charset=utf-8";
        var html = $"""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8" /><title>{WebUtility.HtmlEncode(title)} · IfiDashboard</title>
            <link rel="stylesheet" href="/_content/IfiDashboard.Client/app.css" /></head>
            <body><main class="content" id="main" data-signin-page>
            <h1>{WebUtility.HtmlEncode(title)}</h1>
            <p data-signin-message>{WebUtility.HtmlEncode(message)}</p>
            <p><a href="{WebUtility.HtmlEncode(href)}" data-signin-link>{WebUtility.HtmlEncode(text)}</a></p>
            </main></body></html>
            """;
        await context.Response.WriteAsync(html, context.RequestAborted);
    }
}
