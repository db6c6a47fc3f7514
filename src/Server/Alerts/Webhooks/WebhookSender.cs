using System.Globalization;
using System.Net;
using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Server.Store.Alerts;

namespace IfiDashboard.Server.Alerts.Webhooks;

/// <summary>A webhook delivery that failed; <see cref="Permanent"/> when sending it again cannot help.</summary>
public sealed class WebhookDeliveryException(string message, bool permanent) : Exception(message)
{
    public bool Permanent { get; } = permanent;
}

/// <summary>
/// Posts an outbox row to the webhook it names. The receiver's TLS certificate is validated as for any HTTPS call, no
/// redirect is followed (it could carry the alert elsewhere), and no error names the URL, which is a credential.
/// A <see cref="WebhookKind.Json"/> post carries <c>X-IfiDashboard-Signature: sha256=&lt;hex HMAC-SHA256 of
/// "&lt;timestamp&gt;.&lt;body&gt;"&gt;</c> with <c>X-IfiDashboard-Timestamp</c> (Unix seconds), and every post
/// <c>X-IfiDashboard-Delivery</c>, the same on every attempt, so a receiver can drop a repeat.
/// </summary>
public sealed class WebhookSender(IHttpClientFactory clients, TimeProvider time)
{
    public const string HttpClientName = "alert-webhooks";
    public const string SignatureHeader = "X-IfiDashboard-Signature";
    public const string TimestampHeader = "X-IfiDashboard-Timestamp";
    public const string DeliveryHeader = "X-IfiDashboard-Delivery";

    public async Task SendAsync(string name, WebhookTarget target, OutboxEntry entry, string? link, TimeSpan timeout, CancellationToken ct)
    {
        var body = WebhookPayloads.For(target.Kind, entry, link);
        using var request = new HttpRequestMessage(HttpMethod.Post, target.Url) { Content = new StringContent(body, Encoding.UTF8, "application/json") };
        request.Headers.Add(DeliveryHeader, entry.MessageId);
        if (target.Kind == WebhookKind.Json)
        {
            var timestamp = time.GetUtcNow().ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
            request.Headers.Add(TimestampHeader, timestamp);
            request.Headers.Add(SignatureHeader, "sha256=" + Signature(target.Secret!, timestamp, body));
        }
        using var timeoutSource = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeoutSource.CancelAfter(timeout);
        HttpResponseMessage response;
        try
        {
            response = await clients.CreateClient(HttpClientName).SendAsync(request, timeoutSource.Token);
        }
        catch (HttpRequestException e)
        {
            // The inner exception names the host and port, never the path that holds the token.
            throw new WebhookDeliveryException($"Webhook '{name}' could not be reached ({e.HttpRequestError}: {e.InnerException?.Message ?? e.Message}).", permanent: false);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            throw new WebhookDeliveryException($"Webhook '{name}' did not answer within {timeout.TotalSeconds:0} s.", permanent: false);
        }
        using (response)
        {
            if (response.IsSuccessStatusCode) return;
            var status = (int)response.StatusCode;
            // 408, 429 and 5xx are the receiver's passing trouble; any other answer (a revoked or mistyped webhook: 400,
            // 401, 403, 404, 410; a redirect) stays the same however often it is sent.
            var passing = response.StatusCode is HttpStatusCode.RequestTimeout or HttpStatusCode.TooManyRequests || status >= 500;
            throw new WebhookDeliveryException(
                $"Webhook '{name}' answered {status} {response.ReasonPhrase}{(passing ? "" : $": check Alerts:Webhooks:{name}")}.", permanent: !passing);
        }
    }

    /// <summary>Lower-case hex HMAC-SHA256 of "timestamp.body" under the shared secret (UTF-8).</summary>
    public static string Signature(string secret, string timestamp, string body) =>
        Convert.ToHexStringLower(HMACSHA256.HashData(Encoding.UTF8.GetBytes(secret), Encoding.UTF8.GetBytes($"{timestamp}.{body}")));
}
