using System.Net;
using System.Net.Http.Json;
using System.Reflection;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Standalone;

/// <summary>The server's collector API (/api/v1/collector) as an instance source and a snapshot sink.</summary>
public sealed class CollectorApiClient(HttpClient http, SnapshotOutbox? outbox = null) : IInstanceSource, ISnapshotSink
{
    /// <summary>This collector's version, reported with each lease request for the server's collectors page.</summary>
    static readonly string? Version = typeof(CollectorApiClient).Assembly
        .GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion is { } v ? v[..Math.Min(v.Length, 64)] : null;

    public async Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount, TimeSpan leaseDuration,
        CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync("api/v1/collector/leases",
            new LeaseRequest(collectorName, Math.Min(maxCount, 1000), (int)leaseDuration.TotalSeconds, Version, outbox?.Pending().Count),
            cancellationToken);
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

    /// <exception cref="SnapshotRefusedException">The server will never take this snapshot (a 4xx other than for the key
    /// or a rate limit).</exception>
    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        using var response = await http.PostAsJsonAsync("api/v1/collector/snapshots", snapshot, cancellationToken);
        if (IsRefusalOfThisSnapshot(response.StatusCode))
            throw new SnapshotRefusedException(response.StatusCode, await ReasonAsync(response, cancellationToken));
        EnsureAccepted(response);
    }

    /// <summary>
    /// A client error about the snapshot itself (not leased by this collector any more, collected too far from the
    /// server's clock, too large, malformed): sending it again gets the same answer. A rejected key, a timeout or a
    /// rate limit concerns every snapshot and passes: those wait and are retried.
    /// </summary>
    static bool IsRefusalOfThisSnapshot(HttpStatusCode status) =>
        (int)status is >= 400 and < 500
        && status is not (HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden or HttpStatusCode.RequestTimeout or HttpStatusCode.TooManyRequests);

    /// <summary>The problem's detail (or title), which names what the server refused; never more than a line.</summary>
    static async Task<string> ReasonAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        try
        {
            var problem = await response.Content.ReadFromJsonAsync<System.Text.Json.JsonElement>(cancellationToken);
            foreach (var name in new[] { "detail", "title" })
                if (problem.ValueKind == System.Text.Json.JsonValueKind.Object && problem.TryGetProperty(name, out var text)
                    && text.GetString() is { Length: > 0 } reason)
                    return (reason + FieldErrors(problem)).ReplaceLineEndings(" ");
        }
        catch (System.Text.Json.JsonException)
        {
            // Not a problem document: the status says enough.
        }
        return response.ReasonPhrase ?? "";
    }

    /// <summary>A validation problem's fields and messages (which time was out of range), after its title.</summary>
    static string FieldErrors(System.Text.Json.JsonElement problem) =>
        problem.TryGetProperty("errors", out var errors) && errors.ValueKind == System.Text.Json.JsonValueKind.Object
            ? string.Concat(errors.EnumerateObject().Select(field => $" {field.Name}: " + string.Join(" ",
                field.Value.ValueKind == System.Text.Json.JsonValueKind.Array ? field.Value.EnumerateArray().Select(m => m.ToString()) : [])))
            : "";

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

/// <summary>The server refused one snapshot for good (<see cref="HttpStatusCode"/> and its reason, never a secret).</summary>
public sealed class SnapshotRefusedException(HttpStatusCode status, string reason)
    : Exception($"The server refused the snapshot ({(int)status}): {reason}")
{
    public HttpStatusCode Status { get; } = status;
    public string Reason { get; } = reason;
}
