using System.Security.Claims;
using IfiDashboard.Shared.Compliance.Policy;
using IfiDashboard.Shared.Editing;

namespace IfiDashboard.Client.Tests.Editing;

/// <summary>A policy editor that answers with a given view or fails; writes are not rendered by these tests.</summary>
public sealed class FakePolicyEditor(Func<Task<PolicyView>> get) : IPolicyEditor
{
    public static FakePolicyEditor Of(PolicyView view) => new(() => Task.FromResult(view));
    public static FakePolicyEditor Failing(string message) => new(() => Task.FromException<PolicyView>(new InvalidOperationException(message)));

    public static PolicyView View(int version, IReadOnlyList<PolicyRule>? rules = null, IReadOnlyList<WaiverView>? waivers = null) =>
        new(new PolicyDocument { Version = version, Rules = rules ?? [] }, waivers ?? [], WaiversNeedApproval: false);

    public Task<PolicyView> GetAsync(CancellationToken cancellationToken) => get();

    public Task<int> SaveRulesAsync(IReadOnlyList<PolicyRule> rules, ClaimsPrincipal by, CancellationToken cancellationToken) =>
        throw new NotSupportedException();

    public Task<long> GrantWaiverAsync(long instanceId, string reason, DateTimeOffset expiresAt, ClaimsPrincipal by, CancellationToken cancellationToken) =>
        throw new NotSupportedException();

    public Task<bool> ApproveWaiverAsync(long waiverId, ClaimsPrincipal by, CancellationToken cancellationToken) =>
        throw new NotSupportedException();

    public Task<bool> RevokeWaiverAsync(long waiverId, ClaimsPrincipal by, CancellationToken cancellationToken) =>
        throw new NotSupportedException();
}
