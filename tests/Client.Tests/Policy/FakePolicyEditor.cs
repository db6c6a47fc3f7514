using System.Security.Claims;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Summary;

namespace IfiDashboard.Client.Tests.Editing;

/// <summary>
/// A policy editor that answers with a given view or fails; writes are not rendered by these tests. Previews judge the
/// given fleet's latest facts with the real compliance engine, as the server's editor does, after its role check.
/// </summary>
public sealed class FakePolicyEditor(Func<Task<PolicyView>> get, IFleetAssessments? fleet = null) : IPolicyEditor
{
    /// <summary>The user each preview was asked for, in order.</summary>
    public List<ClaimsPrincipal> PreviewedFor { get; } = [];

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

    public async Task<PolicyImpact> PreviewRulesAsync(IReadOnlyList<PolicyRule> rules, ClaimsPrincipal by, CancellationToken cancellationToken)
    {
        PreviewedFor.Add(by);
        var current = (await get()).Document;
        return PolicyImpact.Compare(await FactsAsync(), current, current with { Rules = rules }, InstanceSpec.Now);
    }

    public async Task<PolicyImpact> PreviewWaiverAsync(long instanceId, string? reason, DateTimeOffset expiresAt, ClaimsPrincipal by, CancellationToken cancellationToken)
    {
        PreviewedFor.Add(by);
        var view = await get();
        var waiver = new Waiver
        {
            InstanceId = instanceId, Reason = reason ?? "", Author = "test", GrantedAt = InstanceSpec.Now, ExpiresAt = expiresAt,
            NeedsApproval = view.WaiversNeedApproval,
        };
        var current = view.Document;
        return PolicyImpact.Compare(await FactsAsync(), current, current with { Waivers = [.. current.Waivers, waiver] }, InstanceSpec.Now);
    }

    async Task<IEnumerable<IfiDashboard.Compliance.Facts.InstanceFacts>> FactsAsync() =>
        (await (fleet ?? throw new NotSupportedException("This fake was given no fleet to preview.")).GetAsync(CancellationToken.None))
        .Instances.Select(i => i.Facts);

    public Task<bool> RevokeWaiverAsync(long waiverId, ClaimsPrincipal by, CancellationToken cancellationToken) =>
        throw new NotSupportedException();
}
