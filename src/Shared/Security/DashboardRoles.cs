namespace IfiDashboard.Shared.Security;

/// <summary>
/// The dashboard's roles, each allowed what the one before it is: a Viewer reads; an Operator also keeps the inventory,
/// tests connections and grants waivers (up to a configured length); an Administrator also sets policy, alert settings
/// and API keys. Each name is also the authorization policy that admits that role and the ones above it, so a page or
/// endpoint names the least role it needs: <c>[Authorize(Policy = DashboardRoles.Operator)]</c>.
/// </summary>
public static class DashboardRoles
{
    public const string Viewer = "Viewer";
    public const string Operator = "Operator";
    public const string Administrator = "Administrator";
}

public static class DashboardRoleChecks
{
    /// <summary>The roles from least to most allowed.</summary>
    public static readonly IReadOnlyList<string> Ordered = [DashboardRoles.Viewer, DashboardRoles.Operator, DashboardRoles.Administrator];

    /// <summary>Whether the user holds <paramref name="role"/> or one above it.</summary>
    public static bool HasAtLeast(this System.Security.Claims.ClaimsPrincipal user, string role)
    {
        var least = Ordered.ToList().IndexOf(role);
        if (least < 0) throw new ArgumentException($"'{role}' is not a dashboard role.", nameof(role));
        return Ordered.Skip(least).Any(user.IsInRole);
    }
}
