using System.Security.Claims;

namespace IfiDashboard.Shared.Security;

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

    /// <summary>The signed-in user's recorded name, or null for an anonymous viewer (who can change nothing).</summary>
    public static string? TryOf(ClaimsPrincipal user)
    {
        try
        {
            return Of(user);
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// Whether two recorded names are one person, for four-eyes rules. Identity providers differ in the case they
    /// return a name in, so case is ignored.
    /// </summary>
    public static bool IsSamePerson(string recorded, string other) => string.Equals(recorded, other, StringComparison.OrdinalIgnoreCase);
}
