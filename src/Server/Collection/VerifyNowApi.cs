using System.Globalization;
using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Changes;
using Microsoft.Extensions.Options;
using IfiDashboard.Store.Inventory;

namespace IfiDashboard.Server.Collection;

/// <summary>
/// <c>POST /api/v1/instances/{key}/verify</c> and <c>POST /api/v1/instances/verify</c> (scope <c>inventory:write</c>):
/// "verify now" through <see cref="VerifyNow"/>, keys resolved as the compliance API resolves them (external key, else id).
/// </summary>
public static class VerifyNowApi
{
    public static RouteGroupBuilder MapVerifyNowApi(this RouteGroupBuilder api)
    {
        var group = api.MapGroup("/instances").WithTags("Inventory");

        group.MapPost("/{key}/verify", VerifyOneAsync)
            .RequireScope(ApiScopes.InventoryWrite)
            .WithName("VerifyInstance")
            .WithSummary("Poll an instance now (by external key or id): it becomes due at once and the collectors pick it up within seconds; the first poll finishing after requestedAt carries the result.")
            .Produces<VerifyResponse>(StatusCodes.Status202Accepted)
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        group.MapPost("/verify", VerifyManyAsync)
            .RequireScope(ApiScopes.InventoryWrite)
            .WithName("VerifyInstances")
            .WithSummary("Poll up to VerifyNow:MaxInstances instances now (external keys or ids), all or none.")
            .Accepts<VerifyRequest>("application/json")
            .Produces<VerifyResponse>(StatusCodes.Status202Accepted)
            .ProducesBodyProblems()
            .ProducesAuthProblems();

        return group;
    }

    static async Task<IResult> VerifyOneAsync(string key, HttpContext context, VerifyNow verify, IFleetAssessments assessments,
        ExternalKeys externalKeys, AuditActors actors, CancellationToken ct)
    {
        var fleet = await assessments.GetAsync(ct);
        var (found, problem) = await InstanceLookup.FindAsync(key, fleet, externalKeys, ct);
        if (problem is not null)
            return problem;
        return Answer(context, await verify.RequestAsync([found!.Instance], $"instance {key}", actors.Current(), ct),
            $"/api/v1/compliance/instances/{Uri.EscapeDataString(key)}");
    }

    static async Task<IResult> VerifyManyAsync(HttpContext context, VerifyNow verify, IFleetAssessments assessments,
        ExternalKeys externalKeys, AuditActors actors, IOptionsMonitor<ApiOptions> options, CancellationToken ct)
    {
        var body = await JsonBody.ReadAsync<VerifyRequest>(context.Request, options.CurrentValue.MaxBodyBytes, ct);
        if (body.Problem is not null)
            return body.Problem;
        var keys = body.Value!.Instances ?? [];
        if (keys.Count == 0 || keys.Count > verify.MaxInstances)
            return ApiProblems.Validation("instances", $"Between 1 and {verify.MaxInstances} external keys or ids (VerifyNow:MaxInstances).");

        var fleet = await assessments.GetAsync(ct);
        var active = await externalKeys.ActiveAsync(ct);
        var errors = new Dictionary<string, string[]>();
        var instances = new List<InstanceAssessment>();
        for (var i = 0; i < keys.Count; i++)
        {
            if (InstanceLookup.Find(keys[i] ?? "", fleet, active).Instance is { } instance)
                instances.Add(instance);
            else
                errors[$"instances[{i}]"] = [$"No assessed active instance has the external key or id '{keys[i]}'."];
        }
        if (errors.Count > 0)
            return ApiProblems.Validation(errors);
        var distinct = instances.DistinctBy(i => i.Registration.Id).ToList();
        return Answer(context, await verify.RequestAsync(distinct, $"{distinct.Count} instances by the API", actors.Current(), ct), null);
    }

    /// <param name="result">Where the result can be read once polled (the compliance API's instance).</param>
    static IResult Answer(HttpContext context, VerifyNowAnswer answer, string? result)
    {
        switch (answer.Refusal)
        {
            case VerifyNowRefusal.TooOften:
                if (answer.RetryAfter is { } wait)
                    context.Response.Headers.RetryAfter = ((int)wait.TotalSeconds).ToString(CultureInfo.InvariantCulture);
                return TypedResults.Problem(answer.Message, statusCode: StatusCodes.Status429TooManyRequests, title: "Too many requests");
            case VerifyNowRefusal.OutOfBounds:
                return ApiProblems.Validation("instances", answer.Message);
            case VerifyNowRefusal.Forbidden:
                return TypedResults.Problem(answer.Message, statusCode: StatusCodes.Status403Forbidden, title: "Forbidden");
        }
        return TypedResults.Accepted(result, new VerifyResponse(answer.RequestedAt, answer.Instances));
    }
}

/// <summary>The instances to poll now, by external key or id.</summary>
public sealed record VerifyRequest(IReadOnlyList<string?>? Instances);

/// <summary>Accepted: the instances are due; each one's first poll finishing after <c>requestedAt</c> carries the result.</summary>
public sealed record VerifyResponse(DateTimeOffset RequestedAt, int Instances);
