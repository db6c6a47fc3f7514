namespace IfiDashboard.Client.Pages.Collectors;

/// <summary>What the collectors page reads; the server implements it over the store's collectors table.</summary>
public interface ICollectorsView
{
    Task<IReadOnlyList<CollectorItem>> ReadAsync(CancellationToken ct);
}

/// <summary>
/// One collector: when it was last heard from (a lease request, a delivered snapshot), what it reported of itself, the
/// instances it keeps and its polls stored in the last day; silent when not heard from for the takeover delay.
/// </summary>
public sealed record CollectorItem(string Name, string? Version, DateTimeOffset LastSeenAt, DateTimeOffset? LastLeaseAt,
    DateTimeOffset? LastDeliveryAt, long? OutboxDepth, long Assigned, long PolledLastDay, bool Silent);
