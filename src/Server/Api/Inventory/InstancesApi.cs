using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Server.Editing;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;
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
            .WithSummary("List instances with filters, a sort (id, name or updatedAt) and cursor paging; ETag / If-None-Match.")
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
            .WithSummary("Bring the CMDB's instances to its full desired inventory, all or nothing (mode=partial: store the valid items, report the others); dryRun changes nothing.")
            .Accepts<SyncRequest>("application/json")
            .Produces<SyncResponse>()
            .ProducesProblem(StatusCodes.Status409Conflict)
            .ProducesBodyProblems()
            .ProducesAuthProblems();

        return group;
    }

    static async Task<IResult> ListAsync([AsParameters] InstanceListParameters parameters, HttpContext context,
        InventoryReader queries, CancellationToken cancellationToken)
    {
        var errors = new FieldErrors();
        if (InstanceListQuery.Parse(context.Request.Query, errors) is not { } filter)
            return ApiProblems.Validation(errors.ToDictionary());

        var rows = await queries.ListAsync(filter, cancellationToken);
        var page = rows.Take(filter.Limit).ToList();
        var nextCursor = rows.Count > filter.Limit ? PageCursor.Encode(filter.Sort, page[^1]) : null;
        var etag = EntityTags.ForPage(page, nextCursor);
        context.Response.Headers.ETag = etag;
        if (EntityTags.NoneMatchHits(context.Request, etag))
            return TypedResults.StatusCode(StatusCodes.Status304NotModified);
        return TypedResults.Ok(new InstancePage(page.Select(InstanceResource.From).ToList(), nextCursor));
    }

    static async Task<IResult> GetAsync(string externalKey, HttpContext context, InventoryReader queries,
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

    static async Task<IResult> PutAsync(string externalKey, HttpContext context, InstanceInventory inventory,
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

        var outcome = await inventory.PutAsync(desired, EntityTags.WriteCondition(context.Request), cancellationToken);
        switch (outcome.Result)
        {
            case InventoryWriteResult.PreconditionFailed:
                return TypedResults.Problem(
                    outcome.Record is null
                        ? "If-Match names an instance that does not exist (it was retired, or never created)."
                        : $"The instance has changed (its ETag is now {EntityTags.For(outcome.Record)}), or If-None-Match: * found it existing. Read it again and retry.",
                    statusCode: StatusCodes.Status412PreconditionFailed, title: "Precondition failed");
            case InventoryWriteResult.Refused:
                return Refused([(null, outcome.Refusal!)]);
        }

        var record = outcome.Record!;
        context.Response.Headers.ETag = EntityTags.For(record);
        var response = new PutInstanceResponse(outcome.Result.ToString().ToLowerInvariant(), InstanceResource.From(record));
        return outcome.Result == InventoryWriteResult.Created
            ? TypedResults.Created($"/api/v1/instances/{Uri.EscapeDataString(externalKey)}", response)
            : TypedResults.Ok(response);
    }

    static async Task<IResult> DeleteAsync(string externalKey, InstanceInventory inventory, CancellationToken cancellationToken) =>
        (await inventory.RetireAsync(externalKey, cancellationToken)).Result == InventoryWriteResult.NotFound
            ? NotFound(externalKey)
            : TypedResults.NoContent();

    static async Task<IResult> SyncAsync([AsParameters] SyncParameters parameters, HttpContext context, InstanceInventory inventory,
        IOptionsMonitor<ApiOptions> options, CancellationToken cancellationToken)
    {
        var errors = new FieldErrors();
        var mode = QueryValues.Single(context.Request.Query, "mode", errors) ?? SyncParameters.AllOrNothing;
        if (mode is not (SyncParameters.AllOrNothing or SyncParameters.Partial))
            errors.Add("mode", $"{SyncParameters.AllOrNothing} (the default) or {SyncParameters.Partial}.");
        if (errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());

        var limits = options.CurrentValue;
        var body = await JsonBody.ReadAsync<SyncRequest>(context.Request, limits.MaxSyncBodyBytes, cancellationToken);
        if (body.Problem is not null)
            return body.Problem;

        var partial = mode == SyncParameters.Partial;
        SyncValidator.Items? items = null;
        IReadOnlyList<DesiredInstance>? desired;
        if (partial)
            desired = (items = SyncValidator.Each(body.Value!, limits.MaxSyncInstances, errors))?.Desired;
        else
            desired = SyncValidator.Validate(body.Value!, limits.MaxSyncInstances, errors);
        if (desired is null)
            return ApiProblems.Validation(errors.ToDictionary());

        var dryRun = body.Value!.DryRun ?? false;
        if (!dryRun)
        {
            try
            {
                context.RequestServices.GetRequiredService<BulkRegistrationLimits>().Acquire();
            }
            catch (TooManyBulkRegistrationsException refused)
            {
                if (refused.RetryAfter is { } wait)
                    context.Response.Headers.RetryAfter = Math.Max(1, (int)Math.Ceiling(wait.TotalSeconds)).ToString(System.Globalization.CultureInfo.InvariantCulture);
                return TypedResults.Problem(refused.Message, statusCode: StatusCodes.Status429TooManyRequests, title: "Too many requests");
            }
        }
        var retireMissing = body.Value.RetireMissing ?? true;
        if (!partial)
        {
            var outcome = await inventory.SyncAsync(desired, dryRun, retireMissing, cancellationToken);
            if (outcome.Refusals.Count > 0)
                return Refused(outcome.Refusals.Select(r => ((int?)r.Index, r.Refusal)).ToList());
            return TypedResults.Ok(new SyncResponse(dryRun, outcome.Created, outcome.Updated, outcome.Retired, outcome.Unchanged, []));
        }

        // A rejected item's instance stays as it is; one whose key could not be read might have been any, so then
        // nothing is retired. A repeated key belongs to the item that came first, which is stored.
        var storedKeys = desired.Select(d => d.ExternalKey).ToHashSet(StringComparer.Ordinal);
        var keptKeys = items!.Rejected.Select(r => r.ExternalKey).OfType<string>().Where(k => !storedKeys.Contains(k)).ToHashSet(StringComparer.Ordinal);
        var unmatched = items.Rejected.Any(r => r.ExternalKey is null);
        List<RejectedSyncItem> Rejections(SyncOutcome outcome) =>
        [
            .. items.Rejected.Select(r => new RejectedSyncItem(r.Index, r.ExternalKey, StatusCodes.Status400BadRequest, r.Errors.ToDictionary())),
            .. outcome.Refusals.Select(r => Rejection(items.Indexes[r.Index], desired[r.Index].ExternalKey, r.Refusal)),
        ];
        var synced = await inventory.SyncPartiallyAsync(desired, keptKeys, unmatched, dryRun, retireMissing,
            outcome => new
            {
                created = outcome.Created.Count, updated = outcome.Updated.Count, retired = outcome.Retired.Count,
                unchanged = outcome.Unchanged.Count,
                rejected = Rejections(outcome).OrderBy(r => r.Index).Select(r => new { path = $"instances[{r.Index}]", r.ExternalKey, r.Status }),
            },
            cancellationToken);
        return TypedResults.Ok(new SyncResponse(dryRun, synced.Created, synced.Updated, synced.Retired, synced.Unchanged,
            [.. Rejections(synced).OrderBy(r => r.Index)]));
    }

    static RejectedSyncItem Rejection(int index, string externalKey, InventoryRefusal refusal) => new(index, externalKey,
        refusal.Kind == InventoryRefusalKind.Invalid ? StatusCodes.Status400BadRequest : StatusCodes.Status409Conflict,
        refusal.Errors.GroupBy(e => $"instances[{index}].{e.Path}").ToDictionary(g => g.Key, g => g.Select(e => e.Message).ToArray()));

    /// <summary>
    /// The inventory's refusals as one problem: 400 for a broken rule, else 409 for a name or server in use, each
    /// field named (<c>instances[3].host</c> in a sync) and the registrations in the way listed under <c>existing</c>.
    /// </summary>
    static IResult Refused(IReadOnlyList<(int? Index, InventoryRefusal Refusal)> refusals)
    {
        string Path(int? index, InstanceFieldError error) => index is { } i ? $"instances[{i}].{error.Path}" : error.Path;
        var errors = refusals
            .SelectMany(r => r.Refusal.Errors.Select(e => (Path: Path(r.Index, e), e.Message)))
            .GroupBy(e => e.Path)
            .ToDictionary(g => g.Key, g => g.Select(e => e.Message).ToArray());
        var kinds = refusals.Select(r => r.Refusal.Kind).Distinct().ToList();
        var (status, title) = kinds.Contains(InventoryRefusalKind.Invalid)
            ? (StatusCodes.Status400BadRequest, "The request has invalid fields.")
            : kinds switch
            {
                [InventoryRefusalKind.NameTaken] => (StatusCodes.Status409Conflict, "Name in use"),
                [InventoryRefusalKind.ServerTaken] => (StatusCodes.Status409Conflict, "Server already registered"),
                _ => (StatusCodes.Status409Conflict, "Name or server in use"),
            };
        var problem = new HttpValidationProblemDetails(errors) { Status = status, Title = title };
        var existing = refusals
            .Where(r => r.Refusal.ExistingLink is not null)
            .Select(r => new ExistingRegistration(r.Refusal.Existing!.Id, r.Refusal.Existing.Name, r.Refusal.ExistingLink!))
            .DistinctBy(e => e.Id)
            .ToList();
        if (existing.Count > 0)
            problem.Extensions["existing"] = existing;
        return TypedResults.Problem(problem);
    }

    static IResult NotFound(string externalKey) => TypedResults.Problem(
        $"No instance has the external key '{externalKey}'.", statusCode: StatusCodes.Status404NotFound, title: "Instance not found");
}
