namespace IfiDashboard.Shared.Inventory;

// Bodies of the server's collector API (/api/v1/collector), shared by the server and the standalone collector.

public sealed record LeaseRequest(string CollectorName, int MaxCount, int LeaseSeconds);

public sealed record ReleaseLeasesRequest(string CollectorName);

public sealed record CompleteLeaseRequest(string CollectorName, DateTimeOffset NextPollAt);
