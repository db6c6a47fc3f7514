using IfiDashboard.Collector.Telemetry;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace IfiDashboard.Collector.Tests.Telemetry;

/// <summary>The standalone collector exports only the signals whose standard OTLP endpoint is configured.</summary>
public sealed class TelemetryExportTests
{
    [Fact]
    public void Without_an_otlp_endpoint_no_provider_is_registered()
    {
        using var host = Build([]);

        Assert.Null(host.Services.GetService<TracerProvider>());
        Assert.Null(host.Services.GetService<MeterProvider>());
    }

    [Fact]
    public void The_common_endpoint_turns_on_traces_and_metrics()
    {
        using var host = Build(new() { ["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://127.0.0.1:4318" });

        Assert.NotNull(host.Services.GetService<TracerProvider>());
        Assert.NotNull(host.Services.GetService<MeterProvider>());
    }

    [Fact]
    public void A_traces_endpoint_alone_exports_traces_only()
    {
        using var host = Build(new() { ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = "http://127.0.0.1:4318/v1/traces" });

        Assert.NotNull(host.Services.GetService<TracerProvider>());
        Assert.Null(host.Services.GetService<MeterProvider>());
    }

    static IHost Build(Dictionary<string, string?> settings)
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(settings);
        builder.AddIfiCollectorTelemetry();
        return builder.Build();
    }
}
