using IfiDashboard.Shared.Security;
using System.Net;

namespace IfiDashboard.Server.Security;

/// <summary>The <c>Auth</c> settings: how people sign in to the dashboard and what their roles allow (docs/security.md).</summary>
public sealed class SignInOptions
{
    public const string Section = "Auth";

    /// <summary>Anonymous browsers may read the dashboard as Viewers. Off by default; never covers the API.</summary>
    public bool AllowAnonymousRead { get; set; }

    /// <summary>The longest waiver an Operator may grant; an Administrator may grant longer.</summary>
    public int MaxWaiverDays { get; set; } = 90;

    /// <summary>Ten years: a longer waiver is a typo, or a policy exception that belongs in the policy.</summary>
    public const int MaxWaiverDaysLimit = 3650;

    /// <summary>
    /// Four-eyes: a waiver counts only once someone other than its author approves it. On by default (a waiver hides a
    /// finding, and an auditor asks who else agreed); the demo turns it off; an explicit <c>false</c> turns it off, and
    /// the evidence report says of each waiver granted then that no approval was needed.
    /// </summary>
    public bool WaiversNeedApproval { get; set; } = true;

    public OidcSettings Oidc { get; set; } = new();
    public ProxySettings Proxy { get; set; } = new();

    /// <summary>
    /// For each role, the claim values (app roles, group ids or names; for the proxy, user names too) that grant it.
    /// A role with no values listed is granted by a value equal to its own name.
    /// </summary>
    public Dictionary<string, List<string>> Roles { get; set; } = new(StringComparer.OrdinalIgnoreCase);

    public bool OidcConfigured => !string.IsNullOrWhiteSpace(Oidc.Authority);
    public bool ProxyConfigured => !string.IsNullOrWhiteSpace(Proxy.UserHeader);

    public sealed class OidcSettings
    {
        public string? Authority { get; set; }
        public string? ClientId { get; set; }
        public string? ClientSecret { get; set; }
        /// <summary>The claim whose values are mapped to roles: <c>roles</c> (Entra ID app roles), <c>groups</c>, ...</summary>
        public string RoleClaim { get; set; } = "roles";
        /// <summary>The claim shown as the user's name and recorded as the author of changes.</summary>
        public string NameClaim { get; set; } = "name";
        public List<string> Scopes { get; set; } = [];
        /// <summary>Only a test provider on loopback may be reached over plain HTTP.</summary>
        public bool RequireHttpsMetadata { get; set; } = true;
    }

    public sealed class ProxySettings
    {
        /// <summary>The header the proxy puts the signed-in user's name in, e.g. <c>X-Remote-User</c>.</summary>
        public string? UserHeader { get; set; }
        /// <summary>Optional: a header with the user's groups or roles, separated by <c>,</c> or <c>;</c>.</summary>
        public string? RolesHeader { get; set; }
        /// <summary>Addresses of the proxies the headers are accepted from.</summary>
        public List<string> KnownProxies { get; set; } = [];
        /// <summary>Networks (CIDR) of the proxies the headers are accepted from.</summary>
        public List<string> KnownNetworks { get; set; } = [];

        public bool IsTrusted(IPAddress? remote)
        {
            if (remote is null) return false;
            if (remote.IsIPv4MappedToIPv6) remote = remote.MapToIPv4();
            return KnownProxies.Any(p => IPAddress.TryParse(p, out var proxy) && proxy.Equals(remote))
                   || KnownNetworks.Any(n => IPNetwork.TryParse(n, out var network) && network.Contains(remote));
        }
    }

    /// <summary>The dashboard roles the given claim values grant.</summary>
    public IEnumerable<string> RolesFor(IEnumerable<string> values)
    {
        var given = values.ToHashSet(StringComparer.OrdinalIgnoreCase);
        return DashboardRoleChecks.Ordered.Where(role =>
            (Roles.TryGetValue(role, out var granting) && granting.Count > 0 ? granting : [role]).Any(given.Contains));
    }

    public IEnumerable<string> Problems()
    {
        if (MaxWaiverDays is < 1 or > MaxWaiverDaysLimit) yield return $"Auth:MaxWaiverDays must be from 1 to {MaxWaiverDaysLimit}.";
        if (OidcConfigured && !(Uri.TryCreate(Oidc.Authority, UriKind.Absolute, out var authority) && authority.Scheme is "https" or "http"))
            yield return "Auth:Oidc:Authority must be the identity provider's absolute https address (its issuer).";
        foreach (var role in Roles.Keys.Where(r => !DashboardRoleChecks.Ordered.Contains(r, StringComparer.OrdinalIgnoreCase)))
            yield return $"Auth:Roles:{role} is not a role; the roles are {string.Join(", ", DashboardRoleChecks.Ordered)}.";
        if (OidcConfigured && string.IsNullOrWhiteSpace(Oidc.ClientId)) yield return "Auth:Oidc:ClientId is required with Auth:Oidc:Authority.";
        if (OidcConfigured && ProxyConfigured) yield return "Set either Auth:Oidc or Auth:Proxy, not both.";
        if (ProxyConfigured && Proxy.KnownProxies.Count + Proxy.KnownNetworks.Count == 0)
            yield return "Auth:Proxy:UserHeader needs Auth:Proxy:KnownProxies or KnownNetworks: the header is accepted only from them.";
        foreach (var p in Proxy.KnownProxies.Where(p => !IPAddress.TryParse(p, out _)))
            yield return $"Auth:Proxy:KnownProxies: '{p}' is not an IP address.";
        foreach (var n in Proxy.KnownNetworks.Where(n => !IPNetwork.TryParse(n, out _)))
            yield return $"Auth:Proxy:KnownNetworks: '{n}' is not a network in CIDR form (10.1.0.0/16).";
    }
}
