using IfiDashboard.Shared.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;

namespace IfiDashboard.Collector.Telemetry;

/// <summary>
/// OpenTelemetry by convention: traces and metrics go over OTLP only when the standard
/// <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> (or a per-signal <c>OTEL_EXPORTER_OTLP_TRACES_ENDPOINT</c> /
/// <c>..._METRICS_ENDPOINT</c>) is set, as an environment variable or in configuration; every other OTEL_* setting
/// (protocol, headers, batch delay, export interval) is read by the SDK itself. Unset, no provider is registered:
/// nothing listens to the activity sources or meters, so spans are never created.
/// </summary>
public static class TelemetryExport
{
    const string EndpointKey = "OTEL_EXPORTER_OTLP_ENDPOINT";
    const string TracesEndpointKey = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
    const string MetricsEndpointKey = "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT";
    const string ServiceNameKey = "OTEL_SERVICE_NAME";
    public const string AnonymousScrapeKey = "Prometheus:AnonymousScrapeUrl";

    /// <summary>The standalone collector's telemetry: its polls, its meter and its calls to the server.</summary>
    public static IHostApplicationBuilder AddIfiCollectorTelemetry(this IHostApplicationBuilder builder) =>
        builder.AddIfiTelemetryExport("ifidashboard-collector",
            tracing => tracing.AddHttpClientInstrumentation(),
            metrics => metrics.AddHttpClientInstrumentation());

    /// <summary>
    /// Registers the OTLP exporter for each signal whose endpoint is configured, with the collector's source and
    /// meter (every host runs a collector) plus what <paramref name="tracing"/> and <paramref name="metrics"/> add. Metrics
    /// are also collected, without OTLP, for a scrape: the host's own endpoint (<paramref name="scrapeEndpoint"/>) or the
    /// unauthenticated listener <c>Prometheus:AnonymousScrapeUrl</c> names.
    /// </summary>
    /// <param name="serviceName">The resource's service name unless <c>OTEL_SERVICE_NAME</c> names another.</param>
    /// <param name="scrapeEndpoint">Adds the host's own Prometheus exporter; null for a host that serves none.</param>
    public static IHostApplicationBuilder AddIfiTelemetryExport(this IHostApplicationBuilder builder, string serviceName,
        Action<TracerProviderBuilder> tracing, Action<MeterProviderBuilder> metrics, Action<MeterProviderBuilder>? scrapeEndpoint = null)
    {
        var configuration = builder.Configuration;
        var exportTraces = IsSet(configuration, EndpointKey) || IsSet(configuration, TracesEndpointKey);
        var exportMetrics = IsSet(configuration, EndpointKey) || IsSet(configuration, MetricsEndpointKey);
        var anonymousScrape = AnonymousScrapeAddress(configuration);
        var collectMetrics = exportMetrics || scrapeEndpoint is not null || anonymousScrape is not null;
        if (!exportTraces && !collectMetrics) return builder;

        var telemetry = builder.Services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService(configuration[ServiceNameKey] is { Length: > 0 } name ? name : serviceName));
        if (exportTraces)
            telemetry.WithTracing(traces =>
            {
                traces.AddSource(CollectorTelemetry.Name);
                tracing(traces);
                traces.AddOtlpExporter();
            });
        if (collectMetrics)
            telemetry.WithMetrics(meters =>
            {
                meters.AddMeter(CollectorTelemetry.Name);
                metrics(meters);
                if (exportMetrics) meters.AddOtlpExporter();
                scrapeEndpoint?.Invoke(meters);
                if (anonymousScrape is { } address)
                    meters.AddPrometheusHttpListener(listener =>
                    {
                        listener.Host = address.Host;
                        listener.Port = address.Port;
                    });
            });
        return builder;
    }

    /// <summary>
    /// Where <c>Prometheus:AnonymousScrapeUrl</c> listens (<c>http://127.0.0.1:9464/</c>: <c>/metrics</c> there answers
    /// anyone who reaches that port; <c>+</c> or <c>*</c> for every address), or null when unset.
    /// </summary>
    static (string Host, int Port)? AnonymousScrapeAddress(IConfiguration configuration)
    {
        if (configuration[AnonymousScrapeKey] is not { Length: > 0 } value) return null;
        // HttpListener's wildcard hosts are no host to Uri.
        var wildcard = value.StartsWith("http://+", StringComparison.Ordinal) || value.StartsWith("http://*", StringComparison.Ordinal);
        var checkable = wildcard ? "http://localhost" + value["http://+".Length..] : value;
        if (!Uri.TryCreate(checkable, UriKind.Absolute, out var url) || url.Scheme != Uri.UriSchemeHttp || url.AbsolutePath != "/"
            || url.Query.Length > 0 || url.IsDefaultPort)
            throw new InvalidSettingException(AnonymousScrapeKey,
                $"'{value}' is not an address to listen on: give http://ADDRESS:PORT/ (for example http://127.0.0.1:9464/); /metrics there is scraped without sign-in.");
        return (wildcard ? "+" : url.Host, url.Port);
    }

    static bool IsSet(IConfiguration configuration, string key) => !string.IsNullOrWhiteSpace(configuration[key]);
}
