using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Collectors;
using Microsoft.Extensions.Options;
using IfiDashboard.Store.Ingestion;

namespace IfiDashboard.Server.Ingestion;

/// <summary><c>GET /api/v1/collectors</c> (scope <c>admin</c>): each collector's liveness, as the collectors page shows it.</summary>
public static class CollectorsApi
{
    public static RouteGroupBuilder MapCollectorsApi(this RouteGroupBuilder api)
    {
        api.MapGet("/collectors", ListAsync)
            .RequireScope(ApiScopes.Admin)
            .WithTags("Collectors")
            .WithName("ListCollectors")
            .WithSummary("Every collector heard from: version, last lease and delivery, outbox depth, instances assigned, polls stored in the last day, and whether it is silent.")
            .Produces<List<CollectorStatus>>()
            .ProducesAuthProblems();
        return api;
    }

    static async Task<IResult> ListAsync(CollectorStore collectors, IOptionsMonitor<IngestionOptions> options, CancellationToken ct) =>
        TypedResults.Ok(await collectors.ListAsync(options.CurrentValue.TakeoverDelay, ct));
}
