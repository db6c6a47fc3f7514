using IfiDashboard.Server.Api.Auth;
using IfiDashboard.Server.Api.Http;
using IfiDashboard.Server.Store.Inventory;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary><c>/api/v1/instances</c>: the inventory as a CMDB sees it. Reads need <c>read</c>, writes <c>inventory:write</c>.</summary>
public static class InstancesApi
{
    public static RouteGroupBuilder MapInstancesApi(this RouteGroupBuilder api)
    {
        var group = api.MapGroup("/instances").WithTags("Inventory");

        group.MapGet("", ListAsync)
            .RequireScope(ApiScopes.Read)
            .WithName("ListInstances")
            .WithSummary("List instances with filters and cursor paging (id order); ETag / If-None-Match.")
            .Produces<InstancePage>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesValidationProblem()
            .ProducesAuthProblems();

        group.MapGet("/{externalKey}", GetAsync)
            .RequireScope(ApiScopes.Read)
            .WithName("GetInstance")
            .WithSummary("Get an instance by its CMDB key (the active one, else the one retired last); ETag / If-None-Match.")
            .Produces<InstanceResource>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        group.MapPut("/{externalKey}", PutAsync)
            .RequireScope(ApiScopes.InventoryWrite)
            .WithName("PutInstance")
            .WithSummary("Create or update an instance by its CMDB key (idempotent); If-Match for optimistic concurrency.")
            .Accepts<InstanceInput>("application/json")
            .Produces<PutInstanceResponse>(StatusCodes.Status201Created)
            .Produces<PutInstanceResponse>()
            .ProducesProblem(StatusCodes.Status409Conflict)
            .ProducesProblem(StatusCodes.Status412PreconditionFailed)
            .ProducesBodyProblems()
            .ProducesAuthProblems();

        group.MapDelete("/{externalKey}", DeleteAsync)
            .RequireScope(ApiScopes.InventoryWrite)
            .WithName("RetireInstance")
            .WithSummary("Retire an instance: it is no longer polled; its history is kept.")
            .Produces(StatusCodes.Status204NoContent)
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        group.MapPost("/sync", SyncAsync)
            .RequireScope(ApiScopes.InventoryWrite)
            .WithName("SyncInstances")
            .WithSummary("Bring the CMDB's instances to its full desired inventory, all or nothing; dryRun changes nothing.")
            .Accepts<SyncRequest>("application/json")
            .Produces<SyncResponse>()
            .ProducesProblem(StatusCodes.Status409Conflict)
            .ProducesBodyProblems()
            .ProducesAuthProblems();

        return group;
    }

    static async Task<IResult> ListAsync([AsParameters] InstanceListParameters parameters, HttpContext context,
        InventoryQueries queries, CancellationToken cancellationToken)
    {
        var errors = new FieldErrors();
        if (InstanceListQuery.Parse(context.Request.Query, errors) is not { } filter)
            return ApiProblems.Validation(errors.ToDictionary());

        var rows = await queries.ListAsync(filter, cancellationToken);
        var page = rows.Take(filter.Limit).ToList();
        var nextCursor = rows.Count > filter.Limit ? PageCursor.Encode(page[^1].Registration.Id) : null;
        var etag = EntityTags.ForPage(page, nextCursor);
        context.Response.Headers.ETag = etag;
        if (EntityTags.NoneMatchHits(context.Request, etag))
            return TypedResults.StatusCode(StatusCodes.Status304NotModified);
        return TypedResults.Ok(new InstancePage(page.Select(InstanceResource.From).ToList(), nextCursor));
    }

    static async Task<IResult> GetAsync(string externalKey, HttpContext context, InventoryQueries queries,
        CancellationToken cancellationToken)
    {
        if (await queries.FindByExternalKeyAsync(externalKey, cancellationToken) is not { } record)
            return NotFound(externalKey);
        var etag = EntityTags.For(record);
        context.Response.Headers.ETag = etag;
        if (EntityTags.NoneMatchHits(context.Request, etag))
            return TypedResults.StatusCode(StatusCodes.Status304NotModified);
        return TypedResults.Ok(InstanceResource.From(record));
    }

    static async Task<IResult> PutAsync(string externalKey, HttpContext context, CmdbInventoryWriter writer,
        IOptionsMonitor<ApiOptions> options, CancellationToken cancellationToken)
    {
        var body = await JsonBody.ReadAsync<InstanceInput>(context.Request, options.CurrentValue.MaxBodyBytes, cancellationToken);
        if (body.Problem is not null)
            return body.Problem;

        var errors = new FieldErrors();
        if (body.Value!.ExternalKey is { } bodyKey && !string.Equals(bodyKey, externalKey, StringComparison.Ordinal))
            errors.Add("externalKey", "Must equal the key in the URL, or be left out.");
        var desired = InstanceValidator.Validate(body.Value, externalKey, "", errors);
        if (desired is null || errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());

        var outcome = await writer.UpsertAsync(desired, EntityTags.WriteCondition(context.Request), cancellationToken);
        switch (outcome.Result)
        {
            case UpsertResult.PreconditionFailed:
                return TypedResults.Problem(
                    outcome.Record is null
                        ? "If-Match names an instance that does not exist (it was retired, or never created)."
                        : $"The instance has changed (its ETag is now {EntityTags.For(outcome.Record)}), or If-None-Match: * found it existing. Read it again and retry.",
                    statusCode: StatusCodes.Status412PreconditionFailed, title: "Precondition failed");
            case UpsertResult.NameConflict:
                return ApiProblems.FieldProblem(StatusCodes.Status409Conflict, "Name in use",
                    new Dictionary<string, string[]> { ["name"] = [$"Another active instance is already named '{desired.Registration.Name}' (names compare ignoring case)."] });
            case UpsertResult.ServerConflict:
                return ApiProblems.FieldProblem(StatusCodes.Status409Conflict, "Server already registered",
                    new Dictionary<string, string[]> { ["host"] = [ServerConflict(outcome.RegisteredAs!, desired.Registration)] });
        }

        var record = outcome.Record!;
        context.Response.Headers.ETag = EntityTags.For(record);
        var response = new PutInstanceResponse(outcome.Result.ToString().ToLowerInvariant(), InstanceResource.From(record));
        return outcome.Result == UpsertResult.Created
            ? TypedResults.Created($"/api/v1/instances/{Uri.EscapeDataString(externalKey)}", response)
            : TypedResults.Ok(response);
    }

    static async Task<IResult> DeleteAsync(string externalKey, CmdbInventoryWriter writer, CancellationToken cancellationToken) =>
        await writer.RetireAsync(externalKey, cancellationToken) is null
            ? NotFound(externalKey)
            : TypedResults.NoContent();

    static async Task<IResult> SyncAsync(HttpContext context, CmdbInventoryWriter writer, IOptionsMonitor<ApiOptions> options,
        CancellationToken cancellationToken)
    {
        var limits = options.CurrentValue;
        var body = await JsonBody.ReadAsync<SyncRequest>(context.Request, limits.MaxSyncBodyBytes, cancellationToken);
        if (body.Problem is not null)
            return body.Problem;

        var errors = new FieldErrors();
        var desired = SyncValidator.Validate(body.Value!, limits.MaxSyncInstances, errors);
        if (desired is null)
            return ApiProblems.Validation(errors.ToDictionary());

        var dryRun = body.Value!.DryRun ?? false;
        var outcome = await writer.SyncAsync(desired, dryRun, body.Value.RetireMissing ?? true, cancellationToken);
        if (outcome.NameConflicts.Count > 0)
            return ApiProblems.FieldProblem(StatusCodes.Status409Conflict, "Name in use",
                outcome.NameConflicts.ToDictionary(i => $"instances[{i}].name", _ => new[]
                {
                    "An active instance outside this sync (registered another way, or kept because retireMissing is false) already has this name.",
                }));
        if (outcome.ServerConflicts.Count > 0)
            return ApiProblems.FieldProblem(StatusCodes.Status409Conflict, "Server already registered",
                outcome.ServerConflicts.ToDictionary(c => $"instances[{c.Index}].host",
                    c => new[] { ServerConflict(c.RegisteredAs, desired[c.Index].Registration) }));
        return TypedResults.Ok(new SyncResponse(dryRun, outcome.Created, outcome.Updated, outcome.Retired, outcome.Unchanged));
    }

    /// <summary>The message every path gives for a server registered twice (<see cref="DuplicateServerException"/>).</summary>
    static string ServerConflict(string registeredAs, Shared.Inventory.InstanceRegistration registration) =>
        new DuplicateServerException(registeredAs, InventoryFields.ServerAddress(registration)).Message;

    static IResult NotFound(string externalKey) => TypedResults.Problem(
        $"No instance has the external key '{externalKey}'.", statusCode: StatusCodes.Status404NotFound, title: "Instance not found");
}
