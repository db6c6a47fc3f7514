using IfiDashboard.Client.Pages.Collectors;
using IfiDashboard.Server.Store.Collectors;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Ingestion;

/// <summary>The collectors page's view of the store: what <c>GET /api/v1/collectors</c> answers.</summary>
public sealed class CollectorsView(CollectorStore collectors, IOptionsMonitor<IngestionOptions> options) : ICollectorsView
{
    public async Task<IReadOnlyList<CollectorItem>> ReadAsync(CancellationToken ct) =>
        [.. (await collectors.ListAsync(options.CurrentValue.TakeoverDelay, ct)).Select(c => new CollectorItem(c.Name, c.Version,
            c.LastSeenAt, c.LastLeaseAt, c.LastDeliveryAt, c.OutboxDepth, c.Assigned, c.PolledLastDay, c.Silent))];
}
