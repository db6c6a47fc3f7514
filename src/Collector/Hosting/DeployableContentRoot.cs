using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;

namespace IfiDashboard.Collector.Hosting;

/// <summary>
/// Where a deployable finds its own files (appsettings.json, and the server's wwwroot): the folder of its binaries,
/// not the working directory, so a published build started from anywhere and "dotnet run" (whose working directory is
/// the repository) both find them. Relative data paths (the SQLite store, an outbox folder) still resolve against the
/// working directory. A content root named on the command line or in the environment is kept.
/// </summary>
public static class DeployableContentRoot
{
    /// <returns>The binaries' folder, or null when the arguments or the environment name a content root.</returns>
    public static string? For(string[] args) =>
        new ConfigurationBuilder()
            .AddEnvironmentVariables("DOTNET_")
            .AddEnvironmentVariables("ASPNETCORE_")
            .AddCommandLine(args)
            .Build()[HostDefaults.ContentRootKey] is null
            ? AppContext.BaseDirectory
            : null;
}
