using IfiDashboard.Collector.Hosting;
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
    const string Deployable = "IfiDashboard collector";

    public static async Task<int> Main(string[] args)
    {
        try
        {
            if (args is [ConnectionCheck.Verb, ..])
                return await ConnectionCheck.RunAsync(args[1..], DeployableContentRoot.For(args));
            var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings
            {
                Args = args,
                ContentRootPath = DeployableContentRoot.For(args),
            });
            // The secrets file first, so that every setting (the key, the name the default outbox is named after) may come from it.
            builder.ReportStartupFailuresOnce().RefuseInlineComments().AddIfiSecretsFile().AddIfiServiceHosting();
            builder.Services.AddIfiStandaloneCollector(builder.Configuration);
            builder.AddIfiCollectorTelemetry();
            using var host = builder.Build();
            await host.RunAsync();
            return 0;
        }
        catch (Exception e) when (StartupFailure.Advice(e) is { } advice)
        {
            // A wrong setting is not a crash: one line naming it and what to do, no stack trace.
            return StartupFailure.Report(Deployable, advice);
        }
    }
}
