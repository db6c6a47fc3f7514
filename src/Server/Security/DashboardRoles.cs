namespace IfiDashboard.Server.Security;

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
