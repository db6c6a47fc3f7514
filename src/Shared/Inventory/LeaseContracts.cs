namespace IfiDashboard.Shared.Inventory;

// Bodies of the server's collector API (/api/v1/collector), shared by the server and the standalone collector.

/// <param name="Version">The collector's own version, shown on the collectors page (optional).</param>
/// <param name="OutboxDepth">Snapshots waiting in the collector's outbox (optional).</param>
public sealed record LeaseRequest(string CollectorName, int MaxCount, int LeaseSeconds, string? Version = null, int? OutboxDepth = null);

public sealed record ReleaseLeasesRequest(string CollectorName);

public sealed record CompleteLeaseRequest(string CollectorName, DateTimeOffset NextPollAt);
