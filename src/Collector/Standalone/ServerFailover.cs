using System.Net;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Standalone;

/// <summary>
/// Sends each request of the collector API to the server that answered last, and to the next of
/// <see cref="ServerConnectionOptions.Servers"/> (in their order, round) when that one does not answer: no connection,
/// no answer within <see cref="AttemptTimeout"/>, or 502/503/504 from a proxy in front of a stopped server. The server
/// that answers is kept for the requests after. Only when none answers does the request fail, and the collector
/// rides through the outage (<see cref="OutageRideThrough"/>) as with one server. Servers share one store, so any of
/// them takes any request; a request one server failed to answer changed nothing there, or is idempotent (snapshots by
/// id, completions by instance), so sending it to the next is safe.
/// </summary>
public sealed class ServerFailover(IReadOnlyList<Uri> servers, ILogger<ServerFailover> logger)
{
    /// <summary>How long one server has to answer before the next is tried.</summary>
    public static readonly TimeSpan AttemptTimeout = TimeSpan.FromSeconds(30);

    int _current;

    /// <summary>The base address requests are written against; each is sent to the current server instead.</summary>
    public Uri BaseAddress => servers[0];

    /// <summary>The longest a request may take: every server tried once.</summary>
    public TimeSpan RequestTimeout => AttemptTimeout * servers.Count + TimeSpan.FromSeconds(5);

    /// <summary>A handler for the collector's HTTP client; each shares this one's servers and the one that answered last.</summary>
    public DelegatingHandler CreateHandler() => new Handler(this);

    sealed class Handler(ServerFailover failover) : DelegatingHandler
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken) =>
            failover.SendAsync(request, base.SendAsync, cancellationToken);
    }

    async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request,
        Func<HttpRequestMessage, CancellationToken, Task<HttpResponseMessage>> send, CancellationToken cancellationToken)
    {
        var relative = servers[0].MakeRelativeUri(request.RequestUri ?? servers[0]);
        var first = Volatile.Read(ref _current);
        Exception? lastFailure = null;
        for (var tried = 0; tried < servers.Count; tried++)
        {
            var index = (first + tried) % servers.Count;
            var attempt = Copy(request, new Uri(servers[index], relative)); // not disposed: that would dispose the shared content
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(AttemptTimeout);
            HttpResponseMessage? response = null;
            try
            {
                response = await send(attempt, timeout.Token);
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested && e is HttpRequestException or OperationCanceledException)
            {
                lastFailure = e;
            }
            var lastServer = tried == servers.Count - 1;
            if (response is not null && (lastServer || !IsProxyWithoutServer(response.StatusCode)))
            {
                if (index != first && Interlocked.Exchange(ref _current, index) != index)
                    logger.LogWarning("The server {Failed} does not answer; using {Server} (Collector:ServerUrls)",
                        servers[first], servers[index]);
                return response;
            }
            response?.Dispose();
            lastFailure ??= new HttpRequestException($"The server {servers[index]} answered through a proxy without a server behind it.");
        }
        throw lastFailure is HttpRequestException ? lastFailure : new HttpRequestException(lastFailure!.Message, lastFailure);
    }

    static bool IsProxyWithoutServer(HttpStatusCode status) =>
        status is HttpStatusCode.BadGateway or HttpStatusCode.ServiceUnavailable or HttpStatusCode.GatewayTimeout;

    /// <summary>A request may be sent once: each attempt is a copy, the content shared (it is serialized anew each time).</summary>
    static HttpRequestMessage Copy(HttpRequestMessage request, Uri to)
    {
        var copy = new HttpRequestMessage(request.Method, to) { Content = request.Content, Version = request.Version };
        foreach (var (name, values) in request.Headers)
            copy.Headers.TryAddWithoutValidation(name, values);
        return copy;
    }
}
