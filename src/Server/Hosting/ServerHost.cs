using IfiDashboard.Collector;
using IfiDashboard.Collector.Hosting;

namespace IfiDashboard.Server.Hosting;

public static class ServerHost
{
    /// <summary>
    /// The server's host, finding its own files however it is started (<see cref="DeployableContentRoot"/>; the test
    /// host names the project folder).
    /// </summary>
    public static WebApplicationBuilder CreateBuilder(string[] args)
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            Args = args,
            ContentRootPath = DeployableContentRoot.For(args),
        });
        // A build output has no wwwroot: the dashboard's stylesheet and scripts are served from the projects that own
        // them, listed in the build's static web assets manifest, which the host reads by itself only in Development.
        // A publish output has them in wwwroot and no manifest, and then this does nothing.
        if (!builder.Environment.IsDevelopment())
            builder.WebHost.UseStaticWebAssets();
        return builder.ReportStartupFailuresOnce().RefuseInlineComments().AddIfiSecretsFile();
    }
}
