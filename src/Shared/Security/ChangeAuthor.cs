using System.Security.Claims;

namespace IfiDashboard.Shared.Security;

/// <summary>
/// Who makes a change: the signed-in person's identity (issuer and subject, <see cref="SignInClaims.Identity"/>), which
/// four-eyes rules and the audit log compare, and their display name, which is only shown. Never a name typed into a
/// form (docs/security.md#identity).
/// </summary>
public static class ChangeAuthor
{
    public const int MaxLength = 128;

    /// <summary>The signed-in person's display name, as changes show it.</summary>
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

    /// <summary>The signed-in person: identity and display name.</summary>
    public static Person PersonOf(ClaimsPrincipal user)
    {
        var name = Of(user);
        if (user.FindFirst(SignInClaims.Identity)?.Value is { Length: > 0 } identity)
            return new Person(identity, name);
        // Sign-ins that name no issuer (the demo's one administrator): the scheme stands for the issuer and the name,
        // in lower case as the proxy's user names, for the subject.
        return new Person(Identity(name.ToLowerInvariant(), user.Identity?.AuthenticationType ?? "local"), name);
    }

    /// <summary>The signed-in person, or null for an anonymous viewer (who can change nothing).</summary>
    public static Person? TryPersonOf(ClaimsPrincipal user)
    {
        try
        {
            return PersonOf(user);
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>An identity as recorded: <c>subject@issuer</c>, compared exactly.</summary>
    public static string Identity(string subject, string issuer) => $"{subject}@{issuer}";

    /// <summary>
    /// Whether a recorded author is <paramref name="person"/>, for four-eyes rules: by identity. A change recorded
    /// before identities were (store migration 0020) has none, and only its display name, compared ignoring case as
    /// the rule was then, can tell.
    /// </summary>
    public static bool IsSamePerson(string? recordedIdentity, string recordedName, Person person) =>
        recordedIdentity is not null
            ? string.Equals(recordedIdentity, person.Identity, StringComparison.Ordinal)
            : string.Equals(recordedName, person.Name, StringComparison.OrdinalIgnoreCase);
}

/// <summary>A signed-in person: <see cref="Identity"/> (issuer and subject) decides, <see cref="Name"/> is shown.</summary>
public sealed record Person(string Identity, string Name);
