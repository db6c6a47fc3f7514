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

    /// <summary>The standalone collector's telemetry: its polls, its meter and its calls to the server.</summary>
    public static IHostApplicationBuilder AddIfiCollectorTelemetry(this IHostApplicationBuilder builder) =>
        builder.AddIfiTelemetryExport("ifidashboard-collector",
            tracing => tracing.AddHttpClientInstrumentation(),
            metrics => metrics.AddHttpClientInstrumentation());

    /// <summary>
    /// Registers the OTLP exporter for each signal whose endpoint is configured, with the collector's source and
    /// meter (every host runs a collector) plus what <paramref name="tracing"/> and <paramref name="metrics"/> add.
    /// </summary>
    /// <param name="serviceName">The resource's service name unless <c>OTEL_SERVICE_NAME</c> names another.</param>
    public static IHostApplicationBuilder AddIfiTelemetryExport(this IHostApplicationBuilder builder, string serviceName,
        Action<TracerProviderBuilder> tracing, Action<MeterProviderBuilder> metrics)
    {
        var configuration = builder.Configuration;
        var exportTraces = IsSet(configuration, EndpointKey) || IsSet(configuration, TracesEndpointKey);
        var exportMetrics = IsSet(configuration, EndpointKey) || IsSet(configuration, MetricsEndpointKey);
        if (!exportTraces && !exportMetrics) return builder;

        var telemetry = builder.Services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService(configuration[ServiceNameKey] is { Length: > 0 } name ? name : serviceName));
        if (exportTraces)
            telemetry.WithTracing(traces =>
            {
                traces.AddSource(CollectorTelemetry.Name);
                tracing(traces);
                traces.AddOtlpExporter();
            });
        if (exportMetrics)
            telemetry.WithMetrics(meters =>
            {
                meters.AddMeter(CollectorTelemetry.Name);
                metrics(meters);
                meters.AddOtlpExporter();
            });
        return builder;
    }

    static bool IsSet(IConfiguration configuration, string key) => !string.IsNullOrWhiteSpace(configuration[key]);
}
