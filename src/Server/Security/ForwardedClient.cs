using System.Net;
using IfiDashboard.Server.Composition;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Primitives;

namespace IfiDashboard.Server.Security;

/// <summary>
/// Behind the trusted proxy (<c>Auth:Proxy</c>), the client's address and scheme as the proxy forwarded them in
/// <c>X-Forwarded-For</c> and <c>X-Forwarded-Proto</c>, believed only from <c>KnownProxies</c>/<c>KnownNetworks</c>,
/// the same addresses its identity header is believed from. The audit records this address. ASP.NET Core's own switch
/// (<c>ASPNETCORE_FORWARDEDHEADERS_ENABLED</c>) believes the headers from anyone and then shows the proxy's address
/// to the identity check, so proxy mode refuses to start with it (<see cref="UnsafeForwarding"/>).
/// </summary>
public static class ForwardedClient
{
    /// <summary>The configuration key behind <c>ASPNETCORE_FORWARDEDHEADERS_ENABLED</c>, read as ASP.NET Core reads it.</summary>
    public const string AspNetCoreSwitch = "FORWARDEDHEADERS_ENABLED";

    /// <summary>Why the server cannot start with these settings, or null.</summary>
    public static string? UnsafeForwarding(IConfiguration configuration, SignInOptions settings) =>
        settings.ProxyConfigured && string.Equals(configuration[AspNetCoreSwitch], "true", StringComparison.OrdinalIgnoreCase)
            ? "ASPNETCORE_FORWARDEDHEADERS_ENABLED=true believes X-Forwarded-For from any address, so any client could pass " +
              "for a known proxy and send the identity header. Remove it: in proxy mode the dashboard reads X-Forwarded-For " +
              "and X-Forwarded-Proto itself, from Auth:Proxy:KnownProxies and KnownNetworks only. See docs/security.md."
            : null;

    /// <summary>The client's address for the audit: the one a known proxy forwarded, else the connection's.</summary>
    public static string? AddressOf(HttpContext context) =>
        context.Features.Get<Forwarded>()?.Address.ToString() ?? context.Connection.RemoteIpAddress?.ToString();

    public static IServiceCollection AddIfiForwardedClient(this IServiceCollection services) =>
        services.AddPipelineStage(PipelineStage.ForwardedClient, _ => new FromKnownProxies());

    sealed record Forwarded(IPAddress Address);

    sealed class FromKnownProxies : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
        {
            app.Use((context, nextMiddleware) =>
            {
                var proxy = context.RequestServices.GetRequiredService<IOptionsMonitor<SignInOptions>>().CurrentValue.Proxy;
                if (proxy.IsTrusted(context.Connection.RemoteIpAddress))
                {
                    if (ClientOf(context.Request.Headers["X-Forwarded-For"], proxy) is { } client)
                        context.Features.Set(new Forwarded(client));
                    if (Last(context.Request.Headers["X-Forwarded-Proto"]) is { } scheme
                        && (scheme.Equals("https", StringComparison.OrdinalIgnoreCase) || scheme.Equals("http", StringComparison.OrdinalIgnoreCase)))
                        context.Request.Scheme = scheme.ToLowerInvariant();
                }
                return nextMiddleware(context);
            });
            next(app);
        };

        /// <summary>
        /// Each proxy appends the address it was reached from, so the entries are read from the right: past the known
        /// proxies, the first is the client's. Entries further left were written by the client and prove nothing.
        /// </summary>
        static IPAddress? ClientOf(StringValues header, SignInOptions.ProxySettings proxy)
        {
            var entries = header.SelectMany(v => (v ?? "").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)).ToList();
            for (var i = entries.Count - 1; i >= 0; i--)
            {
                if (!IPAddress.TryParse(entries[i], out var address)) return null;
                if (!proxy.IsTrusted(address)) return address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address;
            }
            return null;
        }

        static string? Last(StringValues header) =>
            header.SelectMany(v => (v ?? "").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)).LastOrDefault();
    }
}
