using IfiDashboard.Collector.Standalone;
using IfiDashboard.Collector.Telemetry;
using Microsoft.Extensions.Hosting;

namespace IfiDashboard.Collector;

/// <summary>
/// The standalone collector: polls the instances the server leases to it and posts the snapshots back
/// (Collector:ServerUrl, Collector:ApiKey). The server runs the same collector embedded, without HTTP.
/// </summary>
public static class CollectorProgram
{
    public static async Task<int> Main(string[] args)
    {
        var builder = Host.CreateApplicationBuilder(args);
        builder.Services.AddIfiStandaloneCollector(builder.Configuration);
        builder.AddIfiCollectorTelemetry();
        using var host = builder.Build();
        await host.RunAsync();
        return 0;
    }
}
