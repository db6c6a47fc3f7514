using System.Security.Claims;

namespace IfiDashboard.Server.Security;

/// <summary>The name a change is recorded under: the signed-in user's, never a name typed into a form.</summary>
public static class ChangeAuthor
{
    public const int MaxLength = 128;

    public static string Of(ClaimsPrincipal user)
    {
        var name = user.Identity is { IsAuthenticated: true } identity
            ? identity.Name ?? user.FindFirst("preferred_username")?.Value ?? user.FindFirst("sub")?.Value
            : null;
        if (string.IsNullOrWhiteSpace(name))
            throw new UnauthorizedAccessException("Only a signed-in user can change the policy or the waivers.");
        name = name.Trim();
        return name.Length <= MaxLength ? name : name[..MaxLength];
    }
}
