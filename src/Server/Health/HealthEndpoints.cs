using IfiDashboard.Server.Store;

namespace IfiDashboard.Server.Health;

public static class HealthEndpoints
{
    /// <summary><c>/healthz</c>: the process answers. <c>/readyz</c>: the store is reachable and migrated.</summary>
    public static IEndpointRouteBuilder MapIfiHealth(this IEndpointRouteBuilder app)
    {
        app.MapGet("/healthz", () => TypedResults.Text("alive"))
            .WithName("Health").WithSummary("Liveness: the server process answers.").ExcludeFromDescription();
        app.MapGet("/readyz", async Task<IResult> (StoreHealth store, CancellationToken ct) =>
                await store.CanReachAsync(ct)
                    ? TypedResults.Text("ready")
                    : TypedResults.Problem("The store is not reachable or not migrated.", statusCode: StatusCodes.Status503ServiceUnavailable))
            .WithName("Readiness").WithSummary("Readiness: the store is reachable.").ExcludeFromDescription();
        return app;
    }
}
