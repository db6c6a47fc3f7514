using IfiDashboard.Server.Composition;
using Microsoft.AspNetCore.Antiforgery;

namespace IfiDashboard.Server.Security;

/// <summary>
/// Response headers that keep the dashboard's pages from being framed, sniffed or made to run script they did not
/// ship, and cookies that never travel over plain HTTP when the dashboard is served over HTTPS (docs/security.md).
/// </summary>
public static class SecurityHeaders
{
    /// <summary>
    /// Every script and stylesheet of the dashboard is a file of its own (src/Client/wwwroot), so nothing inline is
    /// allowed: an injected &lt;script&gt; or style attribute does not run. <c>img-src data:</c> is for the SVG and
    /// icon data URIs the pages draw; <c>form-action 'self'</c> keeps a forged form from posting elsewhere.
    /// <c>connect-src 'self'</c> is all blazor.web.js needs: its circuit's negotiate and websocket go to the page's own
    /// origin (CSP 3 counts ws: and wss: to the same host as 'self'); it runs no eval and adds no inline style.
    /// </summary>
    public const string ContentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
        "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

    /// <summary>
    /// The headers go on through a startup filter, so they wrap the whole pipeline: the authentication and
    /// authorization middleware that WebApplication adds ahead of everything Program.cs adds would otherwise answer
    /// 401s and 403s without them. With <paramref name="warnWhenAnyHostIsAllowed"/> (everything but the loopback
    /// demo), <c>AllowedHosts: *</c> is logged as a warning: any Host header is then served, and links in alert mail
    /// and redirects trust it.
    /// </summary>
    public static IServiceCollection AddIfiSecurityHeaders(this IServiceCollection services, bool warnWhenAnyHostIsAllowed)
    {
        // Sent only on HTTPS responses (ASP.NET Core's HSTS middleware never sends it over HTTP or for localhost).
        services.AddHsts(options => options.MaxAge = TimeSpan.FromDays(365));
        services.Configure<AntiforgeryOptions>(options =>
        {
            options.Cookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
            options.Cookie.SameSite = SameSiteMode.Strict;
        });
        services.AddPipelineStage(PipelineStage.SecurityHeaders, _ => new HeadersFirst(warnWhenAnyHostIsAllowed));
        // Inside the headers' stage, so its answers carry them.
        services.AddPipelineStage(PipelineStage.OversizedRequests, sp => ActivatorUtilities.CreateInstance<OversizedRequests>(sp));
        return services;
    }

    sealed class HeadersFirst(bool warnWhenAnyHostIsAllowed) : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
        {
            var configuration = app.ApplicationServices.GetRequiredService<IConfiguration>();
            if (warnWhenAnyHostIsAllowed && configuration["AllowedHosts"] is null or "" or "*")
                app.ApplicationServices.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(SecurityHeaders).FullName!).LogWarning(
                    "AllowedHosts is '*': requests with any Host header are served. Set AllowedHosts to the names users " +
                    "reach the dashboard by, separated by ';' (docs/security.md).");
            app.UseHsts();
            app.Use((context, nextMiddleware) =>
            {
                var headers = context.Response.Headers;
                headers.ContentSecurityPolicy = ContentSecurityPolicy;
                headers.XContentTypeOptions = "nosniff";
                headers.XFrameOptions = "DENY";
                headers["Referrer-Policy"] = "no-referrer";
                headers["Cross-Origin-Opener-Policy"] = "same-origin";
                headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=(), payment=()";
                return nextMiddleware(context);
            });
            next(app);
        };
    }
}
