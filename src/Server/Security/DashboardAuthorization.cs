using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Security;

/// <summary>Admits a user holding <see cref="Role"/> or a role above it (and, for Viewer, anonymous read when allowed).</summary>
public sealed record DashboardRoleRequirement(string Role) : IAuthorizationRequirement;

/// <summary>
/// A dashboard page: reading it needs a Viewer; posting one of its forms (static SSR posts to the page's own address,
/// naming the form in <c>_handler</c>) needs the role <see cref="DashboardPages.FormRoles"/> gives that form.
/// </summary>
public sealed record DashboardPageRequirement : IAuthorizationRequirement;

/// <summary>
/// What has no rule of its own needs a Viewer, except an API request that matched no operation: routing answers it
/// 404, 405, 406 or 415 as a problem document, and there is nothing behind it to serve.
/// </summary>
public sealed record DashboardFallbackRequirement : IAuthorizationRequirement
{
    static readonly string[] RoutingRejections = ["405 HTTP Method Not Supported", "406 HTTP Unsupported Encoding", "415 HTTP Unsupported Media Type"];

    public static bool IsUnmatchedApiRequest(object? resource) =>
        resource is HttpContext http && http.Request.Path.StartsWithSegments("/api/v1")
        && (http.GetEndpoint() is not { } endpoint || RoutingRejections.Contains(endpoint.DisplayName));
}

public static class DashboardPages
{
    public const string Policy = "dashboard-page";

    /// <summary>Every form of the dashboard and the least role that may post it; a form not listed is refused.</summary>
    public static readonly IReadOnlyDictionary<string, string> FormRoles = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["rules"] = DashboardRoles.Administrator,
        ["test-email"] = DashboardRoles.Administrator,
        ["alert-settings"] = DashboardRoles.Administrator,
        ["change-webhook"] = DashboardRoles.Administrator,
        ["delete-change-webhook"] = DashboardRoles.Administrator,
        ["assignments"] = DashboardRoles.Administrator,
        ["grant"] = DashboardRoles.Operator,
        ["revoke"] = DashboardRoles.Operator,
        ["approve"] = DashboardRoles.Operator,
        ["registration"] = DashboardRoles.Operator,
        ["retire"] = DashboardRoles.Operator,
        ["import"] = DashboardRoles.Operator,
        ["acknowledge"] = DashboardRoles.Operator,
        ["snooze"] = DashboardRoles.Operator,
        ["silence"] = DashboardRoles.Operator,
        ["end-silence"] = DashboardRoles.Operator,
    };

    /// <summary>Blazor's form field naming which form was posted.</summary>
    public const string FormNameField = "_handler";
}

public sealed class DashboardRoleHandler(IOptionsMonitor<SignInOptions> options) : IAuthorizationHandler
{
    public async Task HandleAsync(AuthorizationHandlerContext context)
    {
        foreach (var requirement in context.PendingRequirements.ToList())
        {
            var admitted = requirement switch
            {
                DashboardRoleRequirement r => Admits(context.User, r.Role),
                DashboardFallbackRequirement => DashboardFallbackRequirement.IsUnmatchedApiRequest(context.Resource)
                                                || Admits(context.User, DashboardRoles.Viewer),
                DashboardPageRequirement => await PageRoleAsync(context.Resource) is { } role && Admits(context.User, role),
                _ => false,
            };
            if (admitted) context.Succeed(requirement);
        }
    }

    bool Admits(System.Security.Claims.ClaimsPrincipal user, string role) =>
        user.HasAtLeast(role)
        || (role == DashboardRoles.Viewer && options.CurrentValue.AllowAnonymousRead && user.Identity?.IsAuthenticated != true);

    static async Task<string?> PageRoleAsync(object? resource)
    {
        if (resource is not HttpContext http) return null;
        if (HttpMethods.IsGet(http.Request.Method) || HttpMethods.IsHead(http.Request.Method)) return DashboardRoles.Viewer;
        if (!HttpMethods.IsPost(http.Request.Method) || !http.Request.HasFormContentType) return null;
        // Read once here and cached on the request, where Blazor's form binding finds it.
        var form = await http.Request.ReadFormAsync(http.RequestAborted);
        return DashboardPages.FormRoles.GetValueOrDefault(form[DashboardPages.FormNameField].ToString());
    }
}
