using System.Net.Http.Json;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Standalone;

/// <summary>The server's collector API (/api/v1/collector) as an instance source and a snapshot sink.</summary>
public sealed class CollectorApiClient(HttpClient http) : IInstanceSource, ISnapshotSink
{
    public async Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount, TimeSpan leaseDuration,
        CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync("api/v1/collector/leases",
            new LeaseRequest(collectorName, Math.Min(maxCount, 1000), (int)leaseDuration.TotalSeconds), cancellationToken);
        response.EnsureSuccessStatusCode();
        return await response.Content.ReadFromJsonAsync<List<InstanceRegistration>>(cancellationToken) ?? [];
    }

    public async Task ReleaseAllAsync(string collectorName, CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync("api/v1/collector/leases/release",
            new ReleaseLeasesRequest(collectorName), cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    public async Task CompleteAsync(long instanceId, string collectorName, DateTimeOffset nextPollAt, CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync($"api/v1/collector/leases/{instanceId}/complete",
            new CompleteLeaseRequest(collectorName, nextPollAt), cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync("api/v1/collector/snapshots", snapshot, cancellationToken);
        response.EnsureSuccessStatusCode();
    }
}
