using System.Globalization;
using System.Net;
using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Store.Alerts;

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

    public Task SendAsync(string name, WebhookTarget target, OutboxEntry entry, string? link, TimeSpan timeout, CancellationToken ct) =>
        PostAsync(name, target.Url!, target.Kind == WebhookKind.Json ? target.Secret : null, entry.MessageId,
            WebhookPayloads.For(target.Kind, entry, link), $"Alerts:Webhooks:{name}", timeout, ct);

    /// <summary>
    /// Posts <paramref name="body"/> to <paramref name="url"/>, signed when there is a <paramref name="secret"/>; throws
    /// <see cref="WebhookDeliveryException"/> naming <paramref name="name"/> (never the URL) and, when sending again cannot
    /// help, what to check (<paramref name="checkWhat"/>).
    /// </summary>
    public async Task PostAsync(string name, string url, string? secret, string deliveryId, string body, string checkWhat,
        TimeSpan timeout, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, url) { Content = new StringContent(body, Encoding.UTF8, "application/json") };
        request.Headers.Add(DeliveryHeader, deliveryId);
        if (secret is not null)
        {
            var timestamp = time.GetUtcNow().ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
            request.Headers.Add(TimestampHeader, timestamp);
            request.Headers.Add(SignatureHeader, "sha256=" + Signature(secret, timestamp, body));
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
                $"Webhook '{name}' answered {status} {response.ReasonPhrase}{(passing ? "" : $": check {checkWhat}")}.", permanent: !passing);
        }
    }

    /// <summary>Lower-case hex HMAC-SHA256 of "timestamp.body" under the shared secret (UTF-8).</summary>
    public static string Signature(string secret, string timestamp, string body) =>
        Convert.ToHexStringLower(HMACSHA256.HashData(Encoding.UTF8.GetBytes(secret), Encoding.UTF8.GetBytes($"{timestamp}.{body}")));
}
