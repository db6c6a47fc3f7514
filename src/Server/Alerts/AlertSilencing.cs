using System.Security.Claims;
using IfiDashboard.Client.Pages;
using IfiDashboard.Store;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Alerts;
using IfiDashboard.Shared.Security;

namespace IfiDashboard.Server.Alerts;

/// <summary>
/// Acknowledgements, snoozes and silences from the dashboard: the role and the input rules (<see cref="SilenceRules"/>)
/// checked here for every path, the change stored and audited by <see cref="AlertSilenceStore"/>. The next alert
/// evaluation applies it.
/// </summary>
public sealed class AlertSilencing(AlertSilenceStore silences, AlertStateStore states, InstanceInventory instances,
    TimeProvider time) : IAlertSilences
{
    public async Task<IReadOnlyList<SilenceView>> ActiveAsync(CancellationToken ct)
    {
        var active = await silences.ListActiveAsync(ct);
        // The inventory is read only for names, and only when a silence names an instance: the live alerts page asks
        // after every assessment, and most silences cover an environment or a tag.
        var names = active.Any(s => s.InstanceId is not null)
            ? (await instances.ListActiveAsync(ct)).ToDictionary(i => i.Id, i => i.Name)
            : [];
        return active.Select(s => new SilenceView(s,
            s.Scope(s.InstanceId is { } id ? names.GetValueOrDefault(id, $"#{id} (retired)") : null))).ToList();
    }

    public async Task<IReadOnlyList<string>> OpenAlertsAsync(long instanceId, CancellationToken ct) =>
        (await states.ListAsync(ct)).Where(s => s.InstanceId == instanceId).Select(s => s.Rule.ToString()).ToList();

    public async Task<long> CreateAsync(SilenceRequest request, ClaimsPrincipal by, CancellationToken ct)
    {
        Require(by);
        var now = time.GetUtcNow();
        var silence = new AlertSilence
        {
            Kind = request.Kind,
            InstanceId = request.InstanceId,
            Environment = request.Environment?.Trim(),
            Tag = request.Tag?.Trim(),
            Reason = request.Reason.Trim(),
            CreatedBy = ChangeAuthor.Of(by),
            CreatedAt = now,
            // An acknowledgement lasts until its alert resolves; the maximum only keeps a forgotten one from lasting forever.
            ExpiresAt = request.Kind == SilenceKind.Acknowledgement ? now + AlertSilence.MaxDuration : request.ExpiresAt ?? now,
        };
        if (SilenceRules.Check(silence, now) is { } broken)
            throw new ArgumentException(broken.Message, broken.Field);
        if (silence.InstanceId is { } id)
        {
            if (await instances.GetAsync(id, ct) is not { RetiredAt: null })
                throw new ArgumentException($"No active instance has id {id}.", "scope");
            if (silence.Kind == SilenceKind.Acknowledgement && (await OpenAlertsAsync(id, ct)).Count == 0)
                throw new ArgumentException("Nothing is alerting on this instance: there is nothing to acknowledge. Snooze it instead.", "scope");
        }
        return await StoreBusy.ForPersonAsync(() => silences.AddAsync(silence, ct));
    }

    public async Task<bool> EndAsync(long id, ClaimsPrincipal by, CancellationToken ct)
    {
        Require(by);
        var endedBy = ChangeAuthor.Of(by);
        return await StoreBusy.ForPersonAsync(() => silences.EndAsync(id, endedBy, ct));
    }

    static void Require(ClaimsPrincipal by)
    {
        if (!by.HasAtLeast(DashboardRoles.Operator))
            throw new UnauthorizedAccessException($"Only an {DashboardRoles.Operator} or above may silence alerts.");
    }
}
