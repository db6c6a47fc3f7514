using System.Collections.Concurrent;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>One request a <see cref="WebhookReceiver"/> took: its path, headers and body.</summary>
internal sealed record ReceivedWebhook(string Path, IReadOnlyDictionary<string, string> Headers, string Body);

/// <summary>
/// A real HTTP server on loopback (Kestrel) that records every POST and answers <see cref="Status"/>. It can be
/// created on a port before it listens, so a test sees a receiver that is down and then up on the same address.
/// </summary>
internal sealed class WebhookReceiver : IAsyncDisposable
{
    readonly ConcurrentQueue<ReceivedWebhook> _received = new();
    WebApplication? _app;

    public int Port { get; } = LoopbackPorts.Unassigned();
    public HttpStatusCode Status { get; set; } = HttpStatusCode.OK;

    public string Url(string path) => $"http://127.0.0.1:{Port}/{path}";

    public IReadOnlyList<ReceivedWebhook> Received => [.. _received];

    public async Task StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls($"http://127.0.0.1:{Port}");
        builder.Logging.ClearProviders();
        _app = builder.Build();
        _app.MapPost("/{**path}", async (HttpContext context) =>
        {
            using var reader = new StreamReader(context.Request.Body);
            var body = await reader.ReadToEndAsync();
            _received.Enqueue(new ReceivedWebhook(context.Request.Path, context.Request.Headers.ToDictionary(h => h.Key, h => h.Value.ToString(), StringComparer.OrdinalIgnoreCase), body));
            context.Response.StatusCode = (int)Status;
        });
        await _app.StartAsync();
    }

    /// <summary>Stops listening (connections are refused) until <see cref="StartAsync"/> on the same port again.</summary>
    public async Task StopAsync()
    {
        if (_app is not null) await _app.DisposeAsync();
        _app = null;
    }

    public async ValueTask DisposeAsync() => await StopAsync();
}
