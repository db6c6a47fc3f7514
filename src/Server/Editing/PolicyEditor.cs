using System.Security.Claims;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Server.Security;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Policy;
using IfiDashboard.Shared.Security;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Editing;

/// <summary>
/// Policy and waiver changes from the dashboard; each one re-assesses the fleet. A busy store refuses a change with
/// <see cref="StoreBusyException"/>, whose message the page shows.
/// </summary>
public sealed class PolicyEditor(PolicyStore policies, InstanceInventory instances, FleetChanges changes, TimeProvider time,
    IOptionsMonitor<SignInOptions> signIn, IFleetAssessments assessments) : IPolicyEditor
{
    public async Task<PolicyView> GetAsync(CancellationToken cancellationToken)
    {
        var document = await policies.GetCurrentAsync(cancellationToken);
        var names = (await instances.ListActiveAsync(cancellationToken)).ToDictionary(i => i.Id, i => i.Name);
        var now = time.GetUtcNow();
        var waivers = (await policies.ListWaiversAsync(cancellationToken))
            .Select(w => new WaiverView(w.Id, names.GetValueOrDefault(w.Waiver.InstanceId, $"#{w.Waiver.InstanceId} (retired)"), w.Waiver, w.Waiver.IsActiveAt(now), w.Waiver.ExpiresAt <= now))
            .ToList();
        return new PolicyView(document, waivers, signIn.CurrentValue.WaiversNeedApproval);
    }

    public async Task<int> SaveRulesAsync(IReadOnlyList<PolicyRule> rules, ClaimsPrincipal by, CancellationToken cancellationToken)
    {
        // The page admits only its role; the API reaches here with any policy:write caller, so the editor decides.
        Require(by, DashboardRoles.Administrator, "set policy");
        var author = ChangeAuthor.Of(by);
        var version = await StoreBusy.ForPersonAsync(() => policies.SaveRulesAsync(rules, author, cancellationToken));
        changes.Publish();
        return version;
    }

    public async Task<long> GrantWaiverAsync(long instanceId, string reason, DateTimeOffset expiresAt, ClaimsPrincipal by,
        CancellationToken cancellationToken)
    {
        Require(by, DashboardRoles.Operator, "grant waivers");
        var waiver = NewWaiver(instanceId, reason, expiresAt, by);
        if (await instances.GetAsync(instanceId, cancellationToken) is not { RetiredAt: null })
            throw new ArgumentException($"No active instance has id {instanceId}.", nameof(instanceId));
        var id = await StoreBusy.ForPersonAsync(() => policies.GrantWaiverAsync(waiver, cancellationToken));
        changes.Publish();
        return id;
    }

    /// <summary>The waiver a grant stores, after the checks every grant passes (and its preview).</summary>
    Waiver NewWaiver(long instanceId, string reason, DateTimeOffset expiresAt, ClaimsPrincipal by)
    {
        var author = ChangeAuthor.PersonOf(by);
        var now = time.GetUtcNow();
        if (expiresAt <= now) throw new ArgumentException("The expiry must be in the future.", nameof(expiresAt));
        if (LengthRefusal(now, expiresAt, by, "grant") is { } refusal) throw new UnauthorizedAccessException(refusal);
        if (string.IsNullOrWhiteSpace(reason)) throw new ArgumentException("A waiver needs a reason.", nameof(reason));
        return new Waiver
        {
            InstanceId = instanceId, Reason = reason.Trim(), Author = author.Name, AuthorIdentity = author.Identity, GrantedAt = now, ExpiresAt = expiresAt,
            NeedsApproval = signIn.CurrentValue.WaiversNeedApproval,
        };
    }

    public async Task<PolicyImpact> PreviewRulesAsync(IReadOnlyList<PolicyRule> rules, ClaimsPrincipal by, CancellationToken cancellationToken)
    {
        Require(by, DashboardRoles.Administrator, "set policy");
        var current = await policies.GetCurrentAsync(cancellationToken);
        return await ImpactAsync(current, current with { Version = current.Version + 1, Rules = rules }, cancellationToken);
    }

    public async Task<PolicyImpact> PreviewWaiverAsync(long instanceId, string? reason, DateTimeOffset expiresAt, ClaimsPrincipal by,
        CancellationToken cancellationToken)
    {
        Require(by, DashboardRoles.Operator, "grant waivers");
        // The reason changes no status (explanations quote it); the grant itself insists on one.
        var waiver = NewWaiver(instanceId, string.IsNullOrWhiteSpace(reason) ? "(reason to be given)" : reason, expiresAt, by);
        var current = await policies.GetCurrentAsync(cancellationToken);
        return await ImpactAsync(current, current with { Waivers = [.. current.Waivers, waiver] }, cancellationToken,
            mustAssess: instanceId);
    }

    /// <summary>The fleet as last assessed, judged under both documents at the same moment.</summary>
    async Task<PolicyImpact> ImpactAsync(PolicyDocument current, PolicyDocument proposed, CancellationToken cancellationToken,
        long? mustAssess = null)
    {
        var fleet = await assessments.GetAsync(cancellationToken);
        if (mustAssess is { } id && fleet.Find(id) is null)
            throw new ArgumentException($"No active instance has id {id}.", "instanceId");
        return PolicyImpact.Compare(fleet.Instances.Select(i => i.Facts), current, proposed, time.GetUtcNow());
    }

    static void Require(ClaimsPrincipal by, string role, string what)
    {
        if (!by.HasAtLeast(role)) throw new UnauthorizedAccessException($"Only an {role} or above may {what}.");
    }

    public async Task<bool> ApproveWaiverAsync(long waiverId, ClaimsPrincipal by, CancellationToken cancellationToken)
    {
        Require(by, DashboardRoles.Operator, "approve waivers");
        var approver = ChangeAuthor.PersonOf(by);
        var now = time.GetUtcNow();
        var result = await StoreBusy.ForPersonAsync(() => policies.ApproveWaiverAsync(waiverId, approver, waiver =>
            ChangeAuthor.IsSamePerson(waiver.AuthorIdentity, waiver.Author, approver)
                ? $"{waiver.Author} granted this waiver: it needs the approval of someone else."
                : waiver.ExpiresAt <= now
                    ? "This waiver has expired; grant a new one."
                    : LengthRefusal(waiver.GrantedAt, waiver.ExpiresAt, by, "approve"), cancellationToken));
        if (result.Refusal is { } refusal) throw new UnauthorizedAccessException(refusal);
        if (result.Approved) changes.Publish();
        return result.Approved;
    }

    /// <summary>
    /// A long waiver hides a finding for long: beyond Auth:MaxWaiverDays it takes an Administrator, to grant it and
    /// to approve it.
    /// </summary>
    string? LengthRefusal(DateTimeOffset from, DateTimeOffset expiresAt, ClaimsPrincipal by, string verb)
    {
        var maxDays = signIn.CurrentValue.MaxWaiverDays;
        return expiresAt > from.AddDays(maxDays) && !by.HasAtLeast(DashboardRoles.Administrator)
            ? $"An Operator may {verb} a waiver for at most {maxDays} days; a longer one needs an Administrator."
            : null;
    }

    public async Task<bool> RevokeWaiverAsync(long waiverId, ClaimsPrincipal by, CancellationToken cancellationToken)
    {
        Require(by, DashboardRoles.Operator, "revoke waivers");
        var revokedBy = ChangeAuthor.Of(by);
        var revoked = await StoreBusy.ForPersonAsync(() => policies.RevokeWaiverAsync(waiverId, revokedBy, cancellationToken));
        if (revoked) changes.Publish();
        return revoked;
    }
}
