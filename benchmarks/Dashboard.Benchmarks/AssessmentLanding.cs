using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Lands changes through the REST API as a CMDB sync would (an instance registered, then retired: each is a stored
/// change, so the server assesses the fleet anew and raises <c>Assessed</c> to every open live page), and finds when the
/// new assessment landed by asking <c>GET /api/v1/compliance/summary</c>, which reads the same in-memory assessment the
/// pages are told about, every <see cref="PollInterval"/>. The landing lies after the last request sent that still
/// answered the old assessment and before the first answer with the new one; the earlier bound is taken, so the time
/// to the pages is never flattered, and the interval's width is reported with it.
/// </summary>
internal sealed class AssessmentLanding(HttpClient http, Uri server, string key)
{
    static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(25);
    const string ProbeKey = "dashboard-benchmark-landing";

    bool _registered;

    /// <summary>A key with <c>read</c> and <c>inventory:write</c>, issued through the API with the bootstrap admin key.</summary>
    public static async Task<AssessmentLanding> IssueKeyAsync(HttpClient http, Uri server, string bootstrapAdminKey)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(server, "api/v1/api-keys"))
        {
            Content = JsonContent.Create(new { name = "dashboard-benchmark", scopes = new[] { "read", "inventory:write" } }),
        };
        request.Headers.Add("X-Api-Key", bootstrapAdminKey);
        using var response = await http.SendAsync(request);
        response.EnsureSuccessStatusCode();
        var issued = await response.Content.ReadFromJsonAsync<JsonElement>();
        return new AssessmentLanding(http, server, issued.GetProperty("key").GetString()!);
    }

    /// <summary>The assessment the API serves now: when it was computed, and how many instances it holds.</summary>
    public async Task<(DateTimeOffset ComputedAt, int Instances)> CurrentAsync()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri(server, "api/v1/compliance/summary"));
        request.Headers.Add("X-Api-Key", key);
        using var response = await http.SendAsync(request);
        response.EnsureSuccessStatusCode();
        var summary = await response.Content.ReadFromJsonAsync<JsonElement>();
        return (summary.GetProperty("computedAt").GetDateTimeOffset(), summary.GetProperty("instances").GetInt32());
    }

    /// <summary>Registers the probe instance, or retires it when registered: each call changes the fleet's instance count.</summary>
    public async Task ChangeAsync()
    {
        using var request = _registered
            ? new HttpRequestMessage(HttpMethod.Delete, new Uri(server, $"api/v1/instances/{ProbeKey}"))
            : new HttpRequestMessage(HttpMethod.Put, new Uri(server, $"api/v1/instances/{ProbeKey}"))
            {
                Content = JsonContent.Create(new
                {
                    name = "bench-landing-probe", host = "bench-landing-probe.invalid", port = 1433,
                    environment = "Production", owner = "dashboard-benchmark",
                }),
            };
        request.Headers.Add("X-Api-Key", key);
        using var response = await http.SendAsync(request);
        if (response.StatusCode is not (HttpStatusCode.OK or HttpStatusCode.Created or HttpStatusCode.NoContent))
            throw new InvalidOperationException($"{request.Method} {request.RequestUri} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        _registered = !_registered;
    }

    /// <summary>
    /// Waits for an assessment whose instance count differs from <paramref name="before"/>'s: that is the one carrying
    /// the change (a timed re-assessment in between counts the same instances and is passed over).
    /// </summary>
    public async Task<Landed> WaitForChangedAsync(int before, TimeSpan timeout)
    {
        var deadline = DateTimeOffset.UtcNow + timeout;
        var lastOldSent = DateTimeOffset.UtcNow;
        while (DateTimeOffset.UtcNow < deadline)
        {
            var sent = DateTimeOffset.UtcNow;
            var (computedAt, instances) = await CurrentAsync();
            var received = DateTimeOffset.UtcNow;
            if (instances != before) return new Landed(computedAt, lastOldSent, received);
            lastOldSent = sent;
            await Task.Delay(PollInterval);
        }
        throw new TimeoutException($"No assessment with other than {before} instances within {timeout.TotalSeconds:F0} s.");
    }

    /// <summary>Waits for the next assessment to land, whatever it holds (the server re-assesses every minute).</summary>
    public async Task<Landed> WaitForNextAsync(TimeSpan timeout)
    {
        var (current, _) = await CurrentAsync();
        var deadline = DateTimeOffset.UtcNow + timeout;
        var lastOldSent = DateTimeOffset.UtcNow;
        while (DateTimeOffset.UtcNow < deadline)
        {
            var sent = DateTimeOffset.UtcNow;
            var (computedAt, _) = await CurrentAsync();
            if (computedAt != current) return new Landed(computedAt, lastOldSent, DateTimeOffset.UtcNow);
            lastOldSent = sent;
            await Task.Delay(PollInterval * 10);
        }
        throw new TimeoutException($"No new assessment within {timeout.TotalSeconds:F0} s.");
    }
}

/// <summary>An assessment that landed, and the interval in which it became the one the server serves.</summary>
internal sealed record Landed(DateTimeOffset ComputedAt, DateTimeOffset NotBefore, DateTimeOffset NotAfter)
{
    public double UncertaintyMs => (NotAfter - NotBefore).TotalMilliseconds;
}
