using System.Diagnostics;
using System.Net;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Times whole page requests over real HTTP, from sending the request to the last byte of the body: static SSR
/// renders the page on the server before it sends it, so that is the server-side rendering time plus loopback.
/// </summary>
internal sealed class PageTimer(HttpClient http, Uri server)
{
    public async Task<Latencies> MeasureAsync(string path, string completeMarker, int warmup, int requests)
    {
        for (var i = 0; i < warmup; i++) await GetAsync(path, completeMarker);
        var times = new List<double>(requests);
        long bytes = 0;
        for (var i = 0; i < requests; i++)
        {
            var (elapsed, length) = await GetAsync(path, completeMarker);
            times.Add(elapsed.TotalMilliseconds);
            bytes = length;
        }
        return new Latencies(path, times, bytes);
    }

    /// <summary>
    /// One request; the page must be the complete one (its marker present, no "loading" placeholder), or a fast
    /// error page would pass for a fast render.
    /// </summary>
    public async Task<(TimeSpan Elapsed, long Bytes)> GetAsync(string path, string completeMarker)
    {
        var started = Stopwatch.GetTimestamp();
        using var response = await http.GetAsync(new Uri(server, path), HttpCompletionOption.ResponseContentRead);
        var body = await response.Content.ReadAsStringAsync();
        var elapsed = Stopwatch.GetElapsedTime(started);
        if (response.StatusCode != HttpStatusCode.OK)
            throw new InvalidOperationException($"GET {path} answered {(int)response.StatusCode}.");
        if (!body.Contains(completeMarker, StringComparison.Ordinal) || body.Contains("aria-busy=\"true\"", StringComparison.Ordinal)
            || body.Contains("role=\"alert\"", StringComparison.Ordinal))
            throw new InvalidOperationException($"GET {path} did not render completely (no {completeMarker}, or a loading or error message).");
        return (elapsed, body.Length);
    }
}
