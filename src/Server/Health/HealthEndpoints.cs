using IfiDashboard.Store;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Store;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace IfiDashboard.Server.Health;

/// <summary>
/// Health checks through ASP.NET Core's framework. <c>/healthz</c>: the process answers (no check runs, the store is
/// not touched). <c>/readyz</c>: every check tagged <see cref="ReadyTag"/> passes, today the store's
/// (<see cref="StoreHealth"/>); 503 with a problem document naming what failed otherwise.
/// </summary>
public static class HealthEndpoints
{
    public const string ReadyTag = "ready";

    public static IServiceCollection AddIfiHealth(this IServiceCollection services)
    {
        services.AddIfiModule(IfiModuleNames.Health, IfiModuleNames.Store);
        services.AddHealthChecks()
            .AddCheck<StoreHealth>("store", tags: [ReadyTag], timeout: TimeSpan.FromSeconds(10));
        // The checks run every 30 s even when nothing probes /readyz, so an outage is logged and shown on the pages.
        services.AddSingleton<IHealthCheckPublisher>(sp => sp.GetRequiredService<StoreAvailability>());
        services.Configure<HealthCheckPublisherOptions>(options => options.Predicate = check => check.Tags.Contains(ReadyTag));
        // StoreAvailability logs an outage once; the framework would log an error with its stack trace per probe.
        services.AddLogging(logging => logging.AddFilter(typeof(HealthCheckService).Namespace, LogLevel.Critical));
        return services;
    }

    public static IEndpointRouteBuilder MapIfiHealth(this IEndpointRouteBuilder app)
    {
        app.MapHealthChecks("/healthz", new HealthCheckOptions
        {
            Predicate = _ => false,
            ResponseWriter = (context, _) => TypedResults.Text("alive").ExecuteAsync(context),
        }).AllowAnonymous(); // probes carry no identity; neither answer names anything but the store's state
        app.MapHealthChecks("/readyz", new HealthCheckOptions
        {
            Predicate = check => check.Tags.Contains(ReadyTag),
            ResponseWriter = WriteReadinessAsync,
        }).AllowAnonymous();
        return app;
    }

    static Task WriteReadinessAsync(HttpContext context, HealthReport report)
    {
        if (report.Status == HealthStatus.Healthy)
            return TypedResults.Text("ready").ExecuteAsync(context);
        var failed = report.Entries.Values.Where(e => e.Status != HealthStatus.Healthy).Select(e => e.Description ?? "A check failed.");
        return TypedResults.Problem(string.Join(" ", failed), statusCode: StatusCodes.Status503ServiceUnavailable).ExecuteAsync(context);
    }
}
