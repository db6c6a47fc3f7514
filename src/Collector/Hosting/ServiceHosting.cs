using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Hosting.WindowsServices;

namespace IfiDashboard.Collector.Hosting;

/// <summary>
/// Runs a deployable (the standalone collector, the server) as a Windows service or a systemd service, with the console
/// log of <see cref="ConsoleLogs"/>.
/// </summary>
public static class ServiceHosting
{
    /// <summary>
    /// Each registration is a no-op unless the process was started by that service manager: Windows' service control
    /// manager (start/stop, event log) or systemd (Type=notify readiness and stopping, journal-formatted logs).
    /// </summary>
    public static TBuilder AddIfiServiceHosting<TBuilder>(this TBuilder builder) where TBuilder : IHostApplicationBuilder
    {
        builder.AddIfiConsoleLogs();
        builder.Services.AddWindowsService();
        builder.Services.AddSystemd();
        // The service control manager starts every service in C:\Windows\System32, where the host already falls back
        // to the binaries' folder as its content root. Relative paths in settings (the SQLite store, the collector's
        // outbox) resolve against the working directory, so make it the content root too, as it is from a shell.
        if (WindowsServiceHelpers.IsWindowsService())
            Directory.SetCurrentDirectory(builder.Environment.ContentRootPath);
        return builder;
    }
}
