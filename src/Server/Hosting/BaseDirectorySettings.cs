using Microsoft.Extensions.Configuration.Json;
using Microsoft.Extensions.FileProviders;

namespace IfiDashboard.Server.Hosting;

public static class BaseDirectorySettings
{
    /// <summary>
    /// Reads appsettings.json from beside the binaries as the lowest-precedence source. The working directory (the
    /// content root) is the repository when started with "dotnet run", so that the store lands in ./data/, and
    /// appsettings.json is not there; environment variables and the command line still override it.
    /// </summary>
    public static WebApplicationBuilder AddBaseDirectorySettings(this WebApplicationBuilder builder)
    {
        var path = Path.Combine(AppContext.BaseDirectory, "appsettings.json");
        if (Path.GetFullPath(builder.Environment.ContentRootPath) == Path.GetFullPath(AppContext.BaseDirectory) || !File.Exists(path))
            return builder;
        IConfigurationBuilder configuration = builder.Configuration;
        configuration.Sources.Insert(0, new JsonConfigurationSource
        {
            Path = "appsettings.json",
            Optional = true,
            FileProvider = new PhysicalFileProvider(AppContext.BaseDirectory),
        });
        return builder;
    }
}
