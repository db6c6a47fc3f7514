using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Server.Tests.Observability;

/// <summary>
/// An OTLP/HTTP receiver on a free loopback port: Kestrel accepting <c>POST /v1/traces</c> and <c>/v1/metrics</c>
/// in protobuf, as a collector (or Jaeger, Tempo, Aspire) would. Spans are decoded from the wire by the field numbers
/// of opentelemetry/proto/trace/v1/trace.proto; of metrics only the names are kept.
/// </summary>
internal sealed class OtlpReceiver : IAsyncDisposable
{
    readonly WebApplication _app;
    readonly Lock _lock = new();
    readonly List<ReceivedSpan> _spans = [];
    readonly HashSet<string> _metricNames = new(StringComparer.Ordinal);
    TaskCompletionSource _received = new(TaskCreationOptions.RunContinuationsAsynchronously);

    OtlpReceiver(WebApplication app) => _app = app;

    public string Endpoint => _app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single();

    public static async Task<OtlpReceiver> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var receiver = new OtlpReceiver(app);
        app.MapPost("/v1/traces", async (HttpRequest request) =>
        {
            var spans = OtlpDecoder.Decode(await ReadBodyAsync(request));
            receiver.Add(r => r._spans.AddRange(spans));
            return Results.Ok();
        });
        app.MapPost("/v1/metrics", async (HttpRequest request) =>
        {
            var names = OtlpDecoder.DecodeMetricNames(await ReadBodyAsync(request));
            receiver.Add(r => r._metricNames.UnionWith(names));
            return Results.Ok();
        });
        await app.StartAsync();
        return receiver;
    }

    /// <summary>Waits until what has arrived satisfies <paramref name="done"/>, or the timeout passes; returns what arrived.</summary>
    public async Task<(IReadOnlyList<ReceivedSpan> Spans, IReadOnlySet<string> MetricNames)> WaitForAsync(
        Func<IReadOnlyList<ReceivedSpan>, IReadOnlySet<string>, bool> done, TimeSpan timeout)
    {
        using var deadline = new CancellationTokenSource(timeout);
        while (true)
        {
            Task next;
            lock (_lock)
            {
                var snapshot = (Spans: (IReadOnlyList<ReceivedSpan>)[.. _spans], MetricNames: (IReadOnlySet<string>)new HashSet<string>(_metricNames));
                if (done(snapshot.Spans, snapshot.MetricNames) || deadline.IsCancellationRequested) return snapshot;
                next = _received.Task;
            }
            try { await next.WaitAsync(deadline.Token); }
            catch (OperationCanceledException) { }
        }
    }

    void Add(Action<OtlpReceiver> add)
    {
        TaskCompletionSource arrived;
        lock (_lock)
        {
            add(this);
            arrived = _received;
            _received = new(TaskCreationOptions.RunContinuationsAsynchronously);
        }
        arrived.SetResult();
    }

    static async Task<byte[]> ReadBodyAsync(HttpRequest request)
    {
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer);
        return buffer.ToArray();
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();
}

/// <param name="Scope">The instrumentation scope: the ActivitySource's name.</param>
internal sealed record ReceivedSpan(
    string ServiceName, string Scope, string Name, string TraceId, string SpanId, string ParentSpanId,
    IReadOnlyDictionary<string, string> Attributes, int StatusCode);

/// <summary>Reads OTLP protobuf with Google.Protobuf's wire reader, by the field numbers of the OTLP protos.</summary>
internal static class OtlpDecoder
{
    public static List<ReceivedSpan> Decode(byte[] body)
    {
        var spans = new List<ReceivedSpan>();
        foreach (var resourceSpans in Fields(body, 1)) // ExportTraceServiceRequest.resource_spans
        {
            var service = Fields(resourceSpans, 1).Select(resource => Attributes(resource, 1)).FirstOrDefault()?.GetValueOrDefault("service.name") ?? "";
            foreach (var scopeSpans in Fields(resourceSpans, 2)) // ResourceSpans.scope_spans
            {
                var scope = Fields(scopeSpans, 1).Select(s => Text(s, 1)).FirstOrDefault() ?? ""; // InstrumentationScope.name
                foreach (var span in Fields(scopeSpans, 2)) // ScopeSpans.spans
                {
                    var status = Fields(span, 15).FirstOrDefault(); // Span.status
                    spans.Add(new ReceivedSpan(service, scope,
                        Name: Text(span, 5) ?? "",
                        TraceId: Hex(span, 1), SpanId: Hex(span, 2), ParentSpanId: Hex(span, 4),
                        Attributes: Attributes(span, 9),
                        StatusCode: status is null ? 0 : (int)Varint(status, 3)));
                }
            }
        }
        return spans;
    }

    /// <summary>ExportMetricsServiceRequest → ResourceMetrics(1) → ScopeMetrics(2) → Metric(2) → name(1).</summary>
    public static IEnumerable<string> DecodeMetricNames(byte[] body) =>
        Fields(body, 1).SelectMany(r => Fields(r, 2)).SelectMany(s => Fields(s, 2)).Select(m => Text(m, 1) ?? "").ToList();

    /// <summary>Resource.attributes (1) or Span.attributes (9): KeyValue { key = 1; AnyValue value = 2 }.</summary>
    static Dictionary<string, string> Attributes(byte[] message, int field) => Fields(message, field).ToDictionary(
        kv => Text(kv, 1) ?? "",
        kv => Fields(kv, 2).Select(AnyValue).FirstOrDefault() ?? "");

    /// <summary>AnyValue: string_value 1, bool_value 2, int_value 3, double_value 4; others are not used by our spans.</summary>
    static string AnyValue(byte[] value)
    {
        var input = new CodedInputStream(value);
        uint tag;
        while ((tag = input.ReadTag()) != 0)
        {
            switch (WireFormat.GetTagFieldNumber(tag))
            {
                case 1: return input.ReadString();
                case 2: return input.ReadBool() ? "true" : "false";
                case 3: return input.ReadInt64().ToString(System.Globalization.CultureInfo.InvariantCulture);
                case 4: return input.ReadDouble().ToString(System.Globalization.CultureInfo.InvariantCulture);
                default: input.SkipLastField(); break;
            }
        }
        return "";
    }

    /// <summary>Every length-delimited occurrence of <paramref name="field"/> in a message.</summary>
    static List<byte[]> Fields(byte[] message, int field)
    {
        var found = new List<byte[]>();
        var input = new CodedInputStream(message);
        uint tag;
        while ((tag = input.ReadTag()) != 0)
        {
            if (WireFormat.GetTagFieldNumber(tag) == field && WireFormat.GetTagWireType(tag) == WireFormat.WireType.LengthDelimited)
                found.Add(input.ReadBytes().ToByteArray());
            else
                input.SkipLastField();
        }
        return found;
    }

    static string? Text(byte[] message, int field) =>
        Fields(message, field).Select(bytes => System.Text.Encoding.UTF8.GetString(bytes)).FirstOrDefault();

    static string Hex(byte[] message, int field) => Convert.ToHexStringLower(Fields(message, field).FirstOrDefault() ?? []);

    static ulong Varint(byte[] message, int field)
    {
        var input = new CodedInputStream(message);
        uint tag;
        while ((tag = input.ReadTag()) != 0)
        {
            if (WireFormat.GetTagFieldNumber(tag) == field && WireFormat.GetTagWireType(tag) == WireFormat.WireType.Varint)
                return input.ReadUInt64();
            input.SkipLastField();
        }
        return 0;
    }
}
