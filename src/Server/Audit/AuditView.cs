using IfiDashboard.Client.Pages.Audit;
using IfiDashboard.Server.Store.Audit;

namespace IfiDashboard.Server.Audit;

/// <summary>The audit page's view of the store's audit log.</summary>
public sealed class AuditView(AuditLog audit) : IAuditView
{
    public async Task<AuditPageData> ReadAsync(AuditQuery query, CancellationToken ct)
    {
        var filter = new AuditFilter(query.Actor, query.Action, query.From, query.To);
        // One more than a page tells whether older entries follow.
        var records = await audit.QueryAsync(filter, query.Before, query.PageSize + 1, ct);
        var (actions, actors) = await audit.DistinctValuesAsync(ct);
        var items = records.Take(query.PageSize).Select(ToItem).ToList();
        return new AuditPageData(items, records.Count > query.PageSize ? items[^1].Id : null, actions, actors);
    }

    public static AuditItem ToItem(AuditRecord r) =>
        new(r.Id, r.OccurredAt, r.Actor, r.RemoteAddress, r.Action, r.Target, r.Before, r.After);
}
