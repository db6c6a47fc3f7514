namespace IfiDashboard.Server.Hosting;

public static class ServerHost
{
    /// <summary>
    /// The server's host, finding its own files however it is started. The content root (appsettings.json, wwwroot)
    /// is the folder of the binaries, not the working directory, so a published server started from anywhere and
    /// "dotnet run" (whose working directory is the repository) both find them; relative data paths such as the
    /// SQLite store still resolve against the working directory. A content root named on the command line or in the
    /// environment (the test host names the project folder) is kept.
    /// </summary>
    public static WebApplicationBuilder CreateBuilder(string[] args)
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            Args = args,
            ContentRootPath = NamesContentRoot(args) ? null : AppContext.BaseDirectory,
        });
        // A build output has no wwwroot: the dashboard's stylesheet and scripts are served from the projects that own
        // them, listed in the build's static web assets manifest, which the host reads by itself only in Development.
        // A publish output has them in wwwroot and no manifest, and then this does nothing.
        if (!builder.Environment.IsDevelopment())
            builder.WebHost.UseStaticWebAssets();
        return builder.ReportStartupFailuresOnce();
    }

    static bool NamesContentRoot(string[] args) =>
        new ConfigurationBuilder()
            .AddEnvironmentVariables("DOTNET_")
            .AddEnvironmentVariables("ASPNETCORE_")
            .AddCommandLine(args)
            .Build()[WebHostDefaults.ContentRootKey] is not null;
}
