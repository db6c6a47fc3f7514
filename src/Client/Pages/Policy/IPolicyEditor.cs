using System.Security.Claims;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Summary;

namespace IfiDashboard.Client.Pages.Policy;

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

    /// <summary>The second person's approval of a waiver that needs one (four-eyes); it counts from then on.</summary>
    /// <returns>False when no waiver with that id is waiting for approval.</returns>
    /// <exception cref="UnauthorizedAccessException">The approver granted it, or their role may not approve its length.</exception>
    Task<bool> ApproveWaiverAsync(long waiverId, ClaimsPrincipal by, CancellationToken cancellationToken);

    // Previews store nothing and are not audited; each checks the role that may make the change it previews.

    /// <summary>What saving these rules would do to the fleet's statuses now.</summary>
    /// <exception cref="UnauthorizedAccessException">The user may not set policy (Administrators may).</exception>
    Task<PolicyImpact> PreviewRulesAsync(IReadOnlyList<PolicyRule> rules, ClaimsPrincipal by, CancellationToken cancellationToken);

    /// <summary>What granting this waiver would do now (nothing while it waits for approval); the reason may be blank yet.</summary>
    /// <exception cref="ArgumentException">As <see cref="GrantWaiverAsync"/>, but for the reason.</exception>
    /// <exception cref="UnauthorizedAccessException">The user may not grant waivers, or not one this long.</exception>
    Task<PolicyImpact> PreviewWaiverAsync(long instanceId, string? reason, DateTimeOffset expiresAt, ClaimsPrincipal by, CancellationToken cancellationToken);

    /// <summary>Ends a waiver in force, or rejects one waiting for approval.</summary>
    /// <returns>False when there is no waiver with that id in force or waiting.</returns>
    Task<bool> RevokeWaiverAsync(long waiverId, ClaimsPrincipal by, CancellationToken cancellationToken);
}

/// <param name="WaiversNeedApproval">Whether a waiver granted now waits for a second person's approval (four-eyes).</param>
public sealed record PolicyView(PolicyDocument Document, IReadOnlyList<WaiverView> Waivers, bool WaiversNeedApproval);

/// <summary>
/// A waiver not revoked, with its store id and the instance's name; <see cref="IsActive"/> is false once expired and
/// while it waits for approval.
/// </summary>
public sealed record WaiverView(long Id, string InstanceName, Waiver Waiver, bool IsActive, bool IsExpired);
