using System.Net;
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
        EnsureAccepted(response);
        return await response.Content.ReadFromJsonAsync<List<InstanceRegistration>>(cancellationToken) ?? [];
    }

    public async Task ReleaseAllAsync(string collectorName, CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync("api/v1/collector/leases/release",
            new ReleaseLeasesRequest(collectorName), cancellationToken);
        EnsureAccepted(response);
    }

    public async Task CompleteAsync(long instanceId, string collectorName, DateTimeOffset nextPollAt, CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync($"api/v1/collector/leases/{instanceId}/complete",
            new CompleteLeaseRequest(collectorName, nextPollAt), cancellationToken);
        EnsureAccepted(response);
    }

    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync("api/v1/collector/snapshots", snapshot, cancellationToken);
        EnsureAccepted(response);
    }

    static void EnsureAccepted(HttpResponseMessage response)
    {
        if (response.StatusCode is HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden)
            throw new CollectorKeyRejectedException(response.StatusCode);
        response.EnsureSuccessStatusCode();
    }
}

/// <summary>
/// The server answered 401 or 403 to <c>Collector:ApiKey</c>. The message names the setting to fix and never holds
/// the key. An <see cref="HttpRequestException"/>, so delivery keeps the snapshots queued and retries with backoff.
/// </summary>
public sealed class CollectorKeyRejectedException(HttpStatusCode status) : HttpRequestException(Describe(status), null, status)
{
    /// <summary>The scope a stored API key needs for the collector API (the server's <c>ApiScopes.SnapshotIngest</c>).</summary>
    public const string RequiredScope = "snapshot:ingest";

    static string Describe(HttpStatusCode status) => status == HttpStatusCode.Forbidden
        ? $"The server refused Collector:ApiKey (403): the key is valid but lacks the scope '{RequiredScope}', or was issued " +
          $"for another collector than Collector:Name; set Collector:ApiKey to a key created with --scopes {RequiredScope} --collector <Collector:Name>."
        : "The server rejected Collector:ApiKey (401): set Collector:ApiKey to the server's Ingestion:ApiKeys:<Collector:Name> " +
          $"or to an unrevoked API key with the scope '{RequiredScope}' issued for this collector.";
}
