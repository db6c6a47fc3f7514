using IfiDashboard.Server.Api.Auth;
using IfiDashboard.Server.Collection;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Ingestion;

/// <summary>The API standalone collectors use: lease due instances, deliver snapshots, complete leases.</summary>
public static class IngestionApi
{
    const int MaxLeaseBatch = 1000;

    public static IServiceCollection AddIfiIngestion(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<IngestionOptions>().Bind(configuration.GetSection(IngestionOptions.Section));
        services.AddSingleton<ApiKeyFilter>();
        services.AddOpenApi();
        services.AddProblemDetails();
        return services;
    }

    public static IEndpointRouteBuilder MapIfiIngestionApi(this IEndpointRouteBuilder app)
    {
        app.MapOpenApi().RequireAuthorization(ApiScopes.PolicyName(ApiScopes.Read));
        // Collectors present their key to ApiKeyFilter, not to the dashboard's sign-in (docs/security.md).
        var group = app.MapGroup("/api/v1/collector")
            .WithTags("Collector")
            .AllowAnonymous()
            .AddEndpointFilter<ApiKeyFilter>();

        group.MapPost("/snapshots", PostSnapshotAsync)
            .WithName("PostSnapshot").WithSummary("Deliver one poll's snapshot; idempotent by snapshotId.");
        group.MapPost("/leases", LeaseAsync)
            .WithName("LeaseDueInstances").WithSummary("Lease instances that are due for a poll.");
        group.MapPost("/leases/release", ReleaseAsync)
            .WithName("ReleaseLeases").WithSummary("Free every lease a (restarted) collector holds.");
        group.MapPost("/leases/{instanceId:long}/complete", CompleteAsync)
            .WithName("CompleteLease").WithSummary("End a lease and schedule the instance's next poll.");
        return app;
    }

    // Straight to the store, without the embedded collector's retries: a busy store answers 503 (StoreBusyResponses) at
    // once and the collector's outbox sends the snapshot again.
    static async Task<IResult> PostSnapshotAsync(InstanceSnapshot snapshot, NotifyingSnapshotSink sink, CancellationToken ct)
    {
        if (snapshot.SnapshotId == Guid.Empty)
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["snapshotId"] = ["A non-empty snapshot id is required."] });
        await sink.WriteAsync(snapshot, ct);
        return TypedResults.NoContent();
    }

    static async Task<IResult> LeaseAsync(LeaseRequest request, IInstanceSource source, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        if (string.IsNullOrWhiteSpace(request.CollectorName)) errors["collectorName"] = ["Required."];
        if (request.MaxCount is < 1 or > MaxLeaseBatch) errors["maxCount"] = [$"Must be between 1 and {MaxLeaseBatch}."];
        if (request.LeaseSeconds is < 10 or > 3600) errors["leaseSeconds"] = ["Must be between 10 and 3600."];
        if (errors.Count > 0) return TypedResults.ValidationProblem(errors);
        var leased = await source.LeaseDueAsync(request.CollectorName, request.MaxCount, TimeSpan.FromSeconds(request.LeaseSeconds), ct);
        return TypedResults.Ok(leased);
    }

    static async Task<IResult> ReleaseAsync(ReleaseLeasesRequest request, IInstanceSource source, CancellationToken ct)
    {
        if (string.IsNullOrWhiteSpace(request.CollectorName))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["collectorName"] = ["Required."] });
        await source.ReleaseAllAsync(request.CollectorName, ct);
        return TypedResults.NoContent();
    }

    static async Task<IResult> CompleteAsync(long instanceId, CompleteLeaseRequest request, IInstanceSource source, CancellationToken ct)
    {
        if (string.IsNullOrWhiteSpace(request.CollectorName))
            return TypedResults.ValidationProblem(new Dictionary<string, string[]> { ["collectorName"] = ["Required."] });
        await source.CompleteAsync(instanceId, request.CollectorName, request.NextPollAt, ct);
        return TypedResults.NoContent();
    }
}
