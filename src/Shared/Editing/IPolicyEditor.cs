using System.Security.Claims;
using IfiDashboard.Shared.Compliance.Policy;

namespace IfiDashboard.Shared.Editing;

/// <summary>What the policy page reads and changes: the ordered rules (versioned) and the waivers.</summary>
public interface IPolicyEditor
{
    Task<PolicyView> GetAsync(CancellationToken cancellationToken);

    // Each change takes the signed-in user who makes it: their name is recorded as its author.

    /// <summary>Saves the rules as a new policy version; returns the version number.</summary>
    Task<int> SaveRulesAsync(IReadOnlyList<PolicyRule> rules, ClaimsPrincipal by, CancellationToken cancellationToken);

    /// <exception cref="ArgumentException">No active instance has that id, or the expiry is not in the future.</exception>
    /// <exception cref="UnauthorizedAccessException">The expiry is further away than the granting user's role allows.</exception>
    Task<long> GrantWaiverAsync(long instanceId, string reason, DateTimeOffset expiresAt, ClaimsPrincipal by, CancellationToken cancellationToken);

    /// <returns>False when there is no waiver with that id in force.</returns>
    Task<bool> RevokeWaiverAsync(long waiverId, ClaimsPrincipal by, CancellationToken cancellationToken);
}

public sealed record PolicyView(PolicyDocument Document, IReadOnlyList<WaiverView> Waivers);

/// <summary>A waiver not revoked, with its store id and the instance's name; <see cref="IsActive"/> is false once expired.</summary>
public sealed record WaiverView(long Id, string InstanceName, Waiver Waiver, bool IsActive);
