using IfiDashboard.Client.Pages.Audit;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Server.Audit;

/// <summary>The audit page's view of the store's audit log.</summary>
public sealed class AuditView(AuditLog audit) : IAuditView
{
    public async Task<AuditPageData> ReadAsync(AuditQuery query, CancellationToken ct)
    {
        var filter = new AuditFilter(query.Actor, query.Action, query.From, query.To);
        var page = await audit.PageAsync(filter, query.Before, query.PageSize, ct);
        var (actions, actors) = await audit.DistinctValuesAsync(ct);
        return new AuditPageData(page.Entries.Select(ToItem).ToList(), page.NextBefore, actions, actors);
    }

    public static AuditItem ToItem(AuditRecord r) =>
        new(r.Id, r.OccurredAt, r.Actor, r.RemoteAddress, r.Action, r.Target, r.Before, r.After) { ActorIdentity = r.ActorIdentity };
}
