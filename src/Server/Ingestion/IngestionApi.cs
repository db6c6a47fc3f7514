using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Server.Collection;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Composition;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Options;
using IfiDashboard.Store.Ingestion;

namespace IfiDashboard.Server.Ingestion;

/// <summary>
/// The API standalone collectors use: lease due instances, deliver snapshots, complete leases. Every request acts
/// as the one collector its key belongs to (<see cref="CollectorIdentity"/>): it leases, completes and delivers for
/// that collector only, a snapshot only for an instance that collector leased, with times no further ahead of the
/// server's clock than <c>Ingestion:MaxClockSkew</c>. What is refused is answered 4xx problem details, changes
/// nothing, and is counted (<see cref="AuditActions.CollectorRefused"/>, <see cref="AuditLog.CountRefusalAsync"/>).
/// </summary>
public static class IngestionApi
{
    const int MaxLeaseBatch = 1000;
    const int MinLeaseSeconds = 10;
    const int MaxLeaseSecondsLimit = 3600;

    public static IServiceCollection AddIfiIngestion(this IServiceCollection services, IConfiguration configuration)
    {
        // A delivered poll is stored as the embedded collector's are (NotifyingSnapshotSink).
        services.AddIfiModule(IfiModuleNames.Ingestion, IfiModuleNames.Store, IfiModuleNames.EmbeddedCollector);
        services.AddOptions<IngestionOptions>().Bind(configuration.GetSection(IngestionOptions.Section))
            .Validate(o => o.ApiKeys.Keys.All(name => !name.All(char.IsAsciiDigit)),
                "Ingestion:ApiKeys is keyed by collector name since keys are bound to collectors: write Ingestion:ApiKeys:<Collector:Name>=<key> instead of Ingestion:ApiKeys:0.")
            .Validate(o => o.ApiKeys.Values.All(key => key.Length >= 16), "Ingestion:ApiKeys: each key must be at least 16 characters.")
            .Validate(o => o.MaxClockSkew >= TimeSpan.Zero && o.MaxClockSkew <= TimeSpan.FromDays(1),
                "Ingestion:MaxClockSkew must be between 00:00:00 and 1.00:00:00.")
            .Validate(o => o.MaxLeasesPerCollector > 0, "Ingestion:MaxLeasesPerCollector must be positive.")
            .Validate(o => o.MaxSnapshotBytes > 0, "Ingestion:MaxSnapshotBytes must be positive.")
            .Validate(o => o.MaxRequestBytes > 0, "Ingestion:MaxRequestBytes must be positive.")
            .Validate(o => o.TakeoverAlertThreshold > 0, "Ingestion:TakeoverAlertThreshold must be positive.")
            .Validate(o => o.MaxLeaseSeconds is >= MinLeaseSeconds and <= MaxLeaseSecondsLimit,
                $"Ingestion:MaxLeaseSeconds must be between {MinLeaseSeconds} and {MaxLeaseSecondsLimit}.")
            .Validate(o => o.TakeoverDelay >= TimeSpan.FromSeconds(10) && o.TakeoverDelay <= TimeSpan.FromDays(1),
                "Ingestion:TakeoverDelay must be between 00:00:10 and 1.00:00:00.")
            .ValidateOnStart();
        services.AddSingleton<CollectorKeyFilter>();
        services.AddProblemDetails();
        return services;
    }

    public static IEndpointRouteBuilder MapIfiIngestionApi(this IEndpointRouteBuilder app)
    {
        // Collectors present their key to ApiKeyFilter, not to the dashboard's sign-in (docs/security.md).
        var group = app.MapGroup("/api/v1/collector")
            .WithTags("Collector")
            .AllowAnonymous()
            .AddEndpointFilter<CollectorKeyFilter>();

        group.MapPost("/snapshots", PostSnapshotAsync)
            .WithName("PostSnapshot").WithSummary("Deliver one poll's snapshot of an instance this collector leased; idempotent by snapshotId. With nextPollAt it also completes the lease, as CompleteLease does.")
            .Accepts<InstanceSnapshot>("application/json");
        group.MapPost("/leases", LeaseAsync)
            .WithName("LeaseDueInstances").WithSummary("Lease instances that are due for a poll.")
            .Accepts<LeaseRequest>("application/json");
        group.MapPost("/leases/release", ReleaseAsync)
            .WithName("ReleaseLeases").WithSummary("Free every lease a (restarted) collector holds.")
            .Accepts<ReleaseLeasesRequest>("application/json");
        group.MapPost("/leases/{instanceId:long}/complete", CompleteAsync)
            .WithName("CompleteLease").WithSummary("End a lease and schedule the instance's next poll (at most two poll intervals ahead).")
            .Accepts<CompleteLeaseRequest>("application/json");
        return app;
    }

    // Straight to the store, without the embedded collector's retries: a busy store answers 503 (StoreBusyResponses) at
    // once and the collector's outbox sends the snapshot again.
    static async Task<IResult> PostSnapshotAsync(HttpContext context, NotifyingSnapshotSink sink, CollectorStore collectors,
        IOptionsMonitor<IngestionOptions> options, TimeProvider time, AuditLog audit, CancellationToken ct)
    {
        var limits = options.CurrentValue;
        var body = await ReadAsync<InstanceSnapshot>(context, limits.MaxSnapshotBytes, audit, ct);
        if (body.Problem is not null)
            return body.Problem;
        var snapshot = body.Value!;
        var collector = CollectorIdentity.Of(context);
        if (snapshot.SnapshotId == Guid.Empty)
            return await RefuseAsync(context, audit, ApiProblems.Validation("snapshotId", "A non-empty snapshot id is required."),
                "snapshot id missing", ct);
        if (!string.Equals(snapshot.CollectorName, collector.CollectorName, StringComparison.Ordinal))
            return await RefuseAsync(context, audit, Problem(StatusCodes.Status403Forbidden, "Another collector's snapshot",
                $"The snapshot names the collector '{snapshot.CollectorName}'; this key belongs to '{collector.CollectorName}'."),
                "collector name differs from the key's", ct);
        var now = time.GetUtcNow();
        if (snapshot.StartedAt > snapshot.FinishedAt || snapshot.FinishedAt > now + limits.MaxClockSkew)
            return await RefuseAsync(context, audit, ApiProblems.Validation("finishedAt",
                $"The collected times must not be later than the server's clock plus Ingestion:MaxClockSkew ({limits.MaxClockSkew}), and startedAt not after finishedAt: check the collector's clock."),
                $"collected times out of range (finished {snapshot.FinishedAt:O})", ct);
        // Stored as no later than it arrived: a later poll, whoever makes it, then always counts as newer.
        snapshot = snapshot with
        {
            StartedAt = snapshot.StartedAt < now ? snapshot.StartedAt : now,
            FinishedAt = snapshot.FinishedAt < now ? snapshot.FinishedAt : now,
        };
        if (!await sink.WriteLeasedAsync(snapshot, collector.CollectorName, limits.MaxClockSkew, now, ct))
            return await RefuseAsync(context, audit, Problem(StatusCodes.Status409Conflict, "Instance not leased",
                $"Instance {snapshot.InstanceId} was not leased to the collector '{collector.CollectorName}' when this poll started: a collector delivers snapshots only of instances it leased, polled while it held them."),
                "instance not leased to this collector when the poll started", ct);
        await collectors.HeardDeliveringAsync(collector.CollectorName, limits.TakeoverDelay, ct);
        return TypedResults.NoContent();
    }

    static async Task<IResult> LeaseAsync(HttpContext context, StoreInstanceSource source, IOptionsMonitor<IngestionOptions> options,
        AuditLog audit, CancellationToken ct)
    {
        var limits = options.CurrentValue;
        var body = await ReadAsync<LeaseRequest>(context, limits.MaxRequestBytes, audit, ct);
        if (body.Problem is not null)
            return body.Problem;
        var request = body.Value!;
        var errors = new Dictionary<string, string[]>();
        if (string.IsNullOrWhiteSpace(request.CollectorName)) errors["collectorName"] = ["Required."];
        if (request.MaxCount is < 1 or > MaxLeaseBatch) errors["maxCount"] = [$"Must be between 1 and {MaxLeaseBatch}."];
        if (request.Version is { } version && (version.Length > 64 || !version.All(c => c is >= ' ' and <= '~')))
            errors["version"] = ["At most 64 printable ASCII characters."];
        if (request.OutboxDepth is < 0) errors["outboxDepth"] = ["Must not be negative."];
        if (request.LeaseSeconds is < MinLeaseSeconds or > MaxLeaseSecondsLimit)
            errors["leaseSeconds"] = [$"Must be between {MinLeaseSeconds} and {MaxLeaseSecondsLimit}."];
        if (errors.Count > 0)
            return await RefuseAsync(context, audit, ApiProblems.Validation(errors), "lease request out of range", ct);
        if (NotThisCollector(context, request.CollectorName) is { } refused)
            return await RefuseAsync(context, audit, refused, "lease for another collector name", ct);
        var collector = CollectorIdentity.Of(context).CollectorName;
        if (await source.CountHeldAsync(collector, ct) >= limits.MaxLeasesPerCollector)
            return await RefuseAsync(context, audit, Problem(StatusCodes.Status429TooManyRequests, "Too many leases",
                $"The collector '{collector}' already holds Ingestion:MaxLeasesPerCollector ({limits.MaxLeasesPerCollector}) leases: complete some first."),
                "lease limit reached", ct);
        // Bounded whatever was asked: at most MaxLeasesPerCollector held, each for at most MaxLeaseSeconds.
        var leased = await source.LeaseDueAsync(collector, request.MaxCount,
            TimeSpan.FromSeconds(Math.Min(request.LeaseSeconds, limits.MaxLeaseSeconds)), limits.MaxLeasesPerCollector, ct,
            new CollectorReport(request.Version, request.OutboxDepth));
        return TypedResults.Ok(leased);
    }

    static async Task<IResult> ReleaseAsync(HttpContext context, StoreInstanceSource source, IOptionsMonitor<IngestionOptions> options,
        AuditLog audit, CancellationToken ct)
    {
        var body = await ReadAsync<ReleaseLeasesRequest>(context, options.CurrentValue.MaxRequestBytes, audit, ct);
        if (body.Problem is not null)
            return body.Problem;
        if (NotThisCollector(context, body.Value!.CollectorName) is { } refused)
            return await RefuseAsync(context, audit, refused, "release for another collector name", ct);
        await source.ReleaseAllAsync(body.Value.CollectorName, ct);
        return TypedResults.NoContent();
    }

    static async Task<IResult> CompleteAsync(long instanceId, HttpContext context, StoreInstanceSource source,
        IOptionsMonitor<IngestionOptions> options, AuditLog audit, CancellationToken ct)
    {
        var body = await ReadAsync<CompleteLeaseRequest>(context, options.CurrentValue.MaxRequestBytes, audit, ct);
        if (body.Problem is not null)
            return body.Problem;
        if (NotThisCollector(context, body.Value!.CollectorName) is { } refused)
            return await RefuseAsync(context, audit, refused, "completion for another collector name", ct);
        await source.CompleteAsync(instanceId, body.Value.CollectorName, body.Value.NextPollAt, ct);
        return TypedResults.NoContent();
    }

    /// <summary>A request naming a collector other than the key's is refused: a key acts for its own collector only.</summary>
    static IResult? NotThisCollector(HttpContext context, string? collectorName)
    {
        var collector = CollectorIdentity.Of(context).CollectorName;
        if (string.IsNullOrWhiteSpace(collectorName))
            return ApiProblems.Validation("collectorName", "Required.");
        return string.Equals(collectorName, collector, StringComparison.Ordinal) ? null
            : Problem(StatusCodes.Status403Forbidden, "Another collector's name",
                $"The request names the collector '{collectorName}'; this key belongs to '{collector}'.");
    }

    static async Task<Body<T>> ReadAsync<T>(HttpContext context, int maxBytes, AuditLog audit, CancellationToken ct) where T : class
    {
        var body = await JsonBody.ReadAsync<T>(context.Request, maxBytes, ct);
        if (body.Problem is not null)
            await RecordRefusalAsync(context, audit, "unreadable or oversized body", ct);
        return body;
    }

    static async Task<IResult> RefuseAsync(HttpContext context, AuditLog audit, IResult problem, string reason,
        CancellationToken ct)
    {
        await RecordRefusalAsync(context, audit, reason, ct);
        return problem;
    }

    static Task RecordRefusalAsync(HttpContext context, AuditLog audit, string reason, CancellationToken ct)
    {
        // Counted, not appended: a key holder's flood of refused requests adds a bounded number of rows an hour.
        var collector = CollectorIdentity.Of(context);
        return audit.CountRefusalAsync(AuditActions.CollectorRefused,
            AuditActor.Collector(collector.CollectorName, context.Connection.RemoteIpAddress?.ToString()),
            $"{reason} (key {collector.KeyId})", ct);
    }

    static IResult Problem(int status, string title, string detail) => TypedResults.Problem(detail, statusCode: status, title: title);
}
