using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>What became of one API write sent while the store's write lock was held.</summary>
internal readonly record struct ApiWriteOutcome(int Busy, bool RetryAfterEveryTime, bool Stored, int Attempts)
{
    public static readonly ApiWriteOutcome None = new(0, true, true, 0);
}

/// <summary>
/// An API client that does what the API asks of it: a write (creating an API key, then revoking it) answered 503 is
/// sent again after its Retry-After, until it is stored. Sent while the lock is held, so it shows the busy answer
/// and that the write is not lost.
/// </summary>
internal sealed class ApiWriteProbe(HttpClient http, Uri server, string adminKey)
{
    const int MaxAttempts = 40;
    static readonly TimeSpan NoRetryAfter = TimeSpan.FromSeconds(5);

    int _sequence;

    public async Task<ApiWriteOutcome> RunAsync()
    {
        var name = $"soak-probe-{++_sequence}";
        var created = await SendAsync(() => Request(HttpMethod.Post, "api/v1/api-keys", JsonContent.Create(new { name, scopes = new[] { "read" } })));
        if (created.Response?.StatusCode != HttpStatusCode.Created) return created.Outcome with { Stored = false };
        var prefix = JsonDocument.Parse(await created.Response.Content.ReadAsStringAsync()).RootElement.GetProperty("prefix").GetString();
        created.Response.Dispose();
        var revoked = await SendAsync(() => Request(HttpMethod.Delete, $"api/v1/api-keys/{prefix}", null));
        revoked.Response?.Dispose();
        return new ApiWriteOutcome(created.Outcome.Busy + revoked.Outcome.Busy,
            created.Outcome.RetryAfterEveryTime && revoked.Outcome.RetryAfterEveryTime,
            revoked.Response?.StatusCode == HttpStatusCode.NoContent, created.Outcome.Attempts + revoked.Outcome.Attempts);
    }

    HttpRequestMessage Request(HttpMethod method, string path, HttpContent? content)
    {
        var request = new HttpRequestMessage(method, new Uri(server, path)) { Content = content };
        request.Headers.Add("X-Api-Key", adminKey);
        return request;
    }

    async Task<(HttpResponseMessage? Response, ApiWriteOutcome Outcome)> SendAsync(Func<HttpRequestMessage> request)
    {
        int busy = 0, attempts = 0;
        var retryAfterEveryTime = true;
        while (attempts < MaxAttempts)
        {
            attempts++;
            var response = await http.SendAsync(request());
            if (response.StatusCode != HttpStatusCode.ServiceUnavailable)
                return (response, new ApiWriteOutcome(busy, retryAfterEveryTime, response.IsSuccessStatusCode, attempts));
            busy++;
            var retryAfter = response.Headers.RetryAfter?.Delta;
            retryAfterEveryTime &= retryAfter is not null;
            response.Dispose();
            // The wait the server asked for: this is the protocol, not a guess at when something is ready.
            await Task.Delay(retryAfter ?? NoRetryAfter);
        }
        return (null, new ApiWriteOutcome(busy, retryAfterEveryTime, false, attempts));
    }
}
