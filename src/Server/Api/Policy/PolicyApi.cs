using System.Globalization;
using System.Security.Claims;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Changes;
using IfiDashboard.Shared.Security;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Api.Policy;

/// <summary>
/// <c>/api/v1/policy</c> and <c>/api/v1/waivers</c>: the policy page's reads (scope <c>read</c>) and changes (scope
/// <c>policy:write</c>), through the page's own editor (<see cref="IPolicyEditor"/>) and the page's form rules
/// (<see cref="RulesDraft"/>, <see cref="WaiverGrant"/>), so roles, four-eyes approval, limits and audit are the page's.
/// </summary>
public static class PolicyApi
{
    public static RouteGroupBuilder MapPolicyApi(this RouteGroupBuilder api)
    {
        var policy = api.MapGroup("/policy").WithTags("Policy");
        policy.MapGet("", GetPolicyAsync)
            .RequireScope(ApiScopes.Read)
            .WithName("GetPolicy")
            .WithSummary("The policy in force: version, rules in order, and whether waivers need a second identity's approval.")
            .Produces<PolicyResponse>()
            .ProducesAuthProblems();
        policy.MapPut("/rules", SaveRulesAsync)
            .RequireScope(ApiScopes.PolicyWrite)
            .WithName("SavePolicyRules")
            .WithSummary("Save the rules as the next policy version (an Administrator, or a key that also holds admin).")
            .Accepts<SaveRulesRequest>("application/json")
            .Produces<SavedPolicyResponse>()
            .ProducesBodyProblems()
            .ProducesAuthProblems();

        var waivers = api.MapGroup("/waivers").WithTags("Policy");
        waivers.MapGet("", ListWaiversAsync)
            .RequireScope(ApiScopes.Read)
            .WithName("ListWaivers")
            .WithSummary("Waivers not revoked (active, awaiting approval or expired), soonest expiry first.")
            .Produces<List<WaiverResponse>>()
            .ProducesAuthProblems();
        waivers.MapGet("/{id:long}", GetWaiverAsync)
            .RequireScope(ApiScopes.Read)
            .WithName("GetWaiver")
            .WithSummary("One waiver not revoked.")
            .Produces<WaiverResponse>()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();
        waivers.MapPost("", GrantAsync)
            .RequireScope(ApiScopes.PolicyWrite)
            .WithName("GrantWaiver")
            .WithSummary("Grant a time-boxed waiver to an instance (external key or id); with Auth:WaiversNeedApproval it counts once another identity approves it.")
            .Accepts<GrantWaiverRequest>("application/json")
            .Produces<WaiverResponse>(StatusCodes.Status201Created)
            .ProducesBodyProblems()
            .ProducesAuthProblems();
        waivers.MapPost("/{id:long}/approve", ApproveAsync)
            .RequireScope(ApiScopes.PolicyWrite)
            .WithName("ApproveWaiver")
            .WithSummary("Approve a waiver awaiting approval: another identity than the one that granted it.")
            .Produces<WaiverResponse>()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesProblem(StatusCodes.Status409Conflict)
            .ProducesAuthProblems();
        waivers.MapDelete("/{id:long}", RevokeAsync)
            .RequireScope(ApiScopes.PolicyWrite)
            .WithName("RevokeWaiver")
            .WithSummary("Revoke a waiver in force, or reject one awaiting approval.")
            .Produces(StatusCodes.Status204NoContent)
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();
        return api;
    }

    static async Task<IResult> GetPolicyAsync(IPolicyEditor editor, IOptionsMonitor<SignInOptions> signIn, CancellationToken ct)
    {
        var view = await editor.GetAsync(ct);
        var rules = view.Document.Rules.Select(r => new PolicyRuleContract(r.Name, r.Desired, r.Environment, r.Tags, r.Owner,
            [.. r.Platforms.Select(p => p.ToString())], r.Versions, [.. r.Editions.Select(e => e.ToString())],
            [.. r.Clusters.Select(c => c.ToString())])).ToList();
        return TypedResults.Ok(new PolicyResponse(view.Document.Version, rules, view.WaiversNeedApproval, signIn.CurrentValue.MaxWaiverDays));
    }

    static async Task<IResult> SaveRulesAsync(HttpContext context, IPolicyEditor editor, IOptionsMonitor<ApiOptions> options,
        CancellationToken ct)
    {
        var body = await JsonBody.ReadAsync<SaveRulesRequest>(context.Request, options.CurrentValue.MaxBodyBytes, ct);
        if (body.Problem is not null)
            return body.Problem;
        if (body.Value!.Rules is not { } requested)
            return ApiProblems.Validation("rules", "The rules to save are required (an empty list saves a policy without rules).");
        // The page's draft and its rule set; its field names become the body's paths.
        var draft = new RulesDraft
        {
            Rules = requested.Select(r => new RuleRow
            {
                Name = r.Name, Desired = r.Desired.ToString(), Environment = r.Environment,
                Tags = string.Join(", ", r.Tags ?? []), Owner = r.Owner,
                Platforms = string.Join(", ", r.Platforms ?? []), Versions = string.Join(", ", r.Versions ?? []),
                Editions = string.Join(", ", r.Editions ?? []), Clusters = string.Join(", ", r.Clusters ?? []),
            }).ToList(),
        };
        var errors = new FormErrors();
        // The form holds each list comma-separated: a comma inside one value would split it into two.
        for (var i = 0; i < requested.Count; i++)
            foreach (var (property, values) in (ReadOnlySpan<(string, IReadOnlyList<string>?)>)[(nameof(RuleRow.Tags), requested[i].Tags),
                         (nameof(RuleRow.Platforms), requested[i].Platforms), (nameof(RuleRow.Versions), requested[i].Versions),
                         (nameof(RuleRow.Editions), requested[i].Editions), (nameof(RuleRow.Clusters), requested[i].Clusters)])
                if (values?.Any(v => v?.Contains(',', StringComparison.Ordinal) != false) == true)
                    errors.Add(RulesDraft.Field(i, property), "A value cannot be empty or hold a comma.");
        if (draft.Validate(errors) is not { } rules || errors.Any)
            return ApiProblems.Validation(errors.All.ToDictionary(e => BodyPath(e.Key), e => new[] { e.Value }));
        try
        {
            return TypedResults.Ok(new SavedPolicyResponse(await editor.SaveRulesAsync(rules, Acting(context.User), ct)));
        }
        catch (UnauthorizedAccessException refused)
        {
            return Forbidden(refused);
        }
    }

    static async Task<IResult> ListWaiversAsync(IPolicyEditor editor, ExternalKeys externalKeys, CancellationToken ct)
    {
        var view = await editor.GetAsync(ct);
        var keys = await externalKeys.ActiveAsync(ct);
        return TypedResults.Ok(view.Waivers.Select(w => Response(w, keys)).ToList());
    }

    static async Task<IResult> GetWaiverAsync(long id, IPolicyEditor editor, ExternalKeys externalKeys, CancellationToken ct) =>
        await FindAsync(id, editor, externalKeys, ct) is { } waiver ? TypedResults.Ok(waiver) : NotFound(id);

    static async Task<IResult> GrantAsync(HttpContext context, IPolicyEditor editor, ExternalKeys externalKeys,
        IOptionsMonitor<ApiOptions> options, CancellationToken ct)
    {
        var body = await JsonBody.ReadAsync<GrantWaiverRequest>(context.Request, options.CurrentValue.MaxBodyBytes, ct);
        if (body.Problem is not null)
            return body.Problem;
        var request = body.Value!;
        var keys = await externalKeys.ActiveAsync(ct);
        var instanceId = request.Instance is { Length: > 0 } key ? InstanceLookup.IdOf(key, keys).Id : null;
        // The page's form and its rules: the instance, the reason, the expiry (a UTC moment).
        var form = new WaiverGrant
        {
            InstanceId = instanceId?.ToString(CultureInfo.InvariantCulture),
            Reason = request.Reason,
            ExpiresAt = request.ExpiresAt?.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss", CultureInfo.InvariantCulture),
        };
        var errors = new FormErrors();
        if (form.Validate(errors) is not { } grant)
        {
            if (request.Instance is { Length: > 0 } && instanceId is null)
                errors.Add(WaiverGrant.Field(nameof(WaiverGrant.InstanceId)), $"No active instance has the external key or id '{request.Instance}'.");
            return ApiProblems.Validation(errors.All.ToDictionary(e => BodyPath(e.Key), e => new[] { e.Value }));
        }
        long id;
        try
        {
            id = await editor.GrantWaiverAsync(grant.InstanceId, grant.Reason, grant.ExpiresAt, Acting(context.User), ct);
        }
        catch (UnauthorizedAccessException refused)
        {
            return Forbidden(refused);
        }
        catch (ArgumentException refused)
        {
            return ApiProblems.Validation(BodyPath(WaiverGrant.FieldOf(refused)), WaiverGrant.MessageOf(refused));
        }
        var granted = await FindAsync(id, editor, externalKeys, ct);
        return TypedResults.Created($"/api/v1/waivers/{id}", granted);
    }

    static async Task<IResult> ApproveAsync(long id, HttpContext context, IPolicyEditor editor, ExternalKeys externalKeys,
        CancellationToken ct)
    {
        if (await FindAsync(id, editor, externalKeys, ct) is null)
            return NotFound(id);
        try
        {
            if (!await editor.ApproveWaiverAsync(id, Acting(context.User), ct))
                return TypedResults.Problem($"Waiver {id} is not awaiting approval: it needed none, or it was approved, rejected or revoked meanwhile.",
                    statusCode: StatusCodes.Status409Conflict, title: "Not awaiting approval");
        }
        catch (UnauthorizedAccessException refused)
        {
            return Forbidden(refused);
        }
        return await FindAsync(id, editor, externalKeys, ct) is { } approved ? TypedResults.Ok(approved) : NotFound(id);
    }

    static async Task<IResult> RevokeAsync(long id, HttpContext context, IPolicyEditor editor, CancellationToken ct)
    {
        try
        {
            return await editor.RevokeWaiverAsync(id, Acting(context.User), ct) ? TypedResults.NoContent() : NotFound(id);
        }
        catch (UnauthorizedAccessException refused)
        {
            return Forbidden(refused);
        }
    }

    static async Task<WaiverResponse?> FindAsync(long id, IPolicyEditor editor, ExternalKeys externalKeys, CancellationToken ct)
    {
        var view = await editor.GetAsync(ct);
        return view.Waivers.FirstOrDefault(w => w.Id == id) is { } waiver ? Response(waiver, await externalKeys.ActiveAsync(ct)) : null;
    }

    static WaiverResponse Response(WaiverView view, IReadOnlyDictionary<long, string> keys)
    {
        var w = view.Waiver;
        var state = view.IsExpired ? WaiverState.Expired : view.IsActive ? WaiverState.Active : WaiverState.AwaitingApproval;
        return new WaiverResponse(view.Id, w.InstanceId, view.InstanceName, keys.GetValueOrDefault(w.InstanceId), w.Reason, w.Author,
            w.GrantedAt, w.ExpiresAt, state, w.ApprovedBy, w.ApprovedAt);
    }

    /// <summary>
    /// Who the editor sees: a signed-in person as they are; a key as an Operator (an Administrator when it also holds
    /// <c>admin</c>), named and identified as the audit log names it (<c>&lt;prefix&gt;@api-key</c>), so four-eyes tells
    /// two keys, or a key and a person, apart.
    /// </summary>
    internal static ClaimsPrincipal Acting(ClaimsPrincipal user)
    {
        if (user.Identity?.AuthenticationType != ApiKeyAuthenticationHandler.SchemeName
            || user.FindFirstValue(ClaimTypes.NameIdentifier) is not { } prefix)
            return user;
        var role = user.HasClaim(ApiScopes.ClaimType, ApiScopes.Admin) ? DashboardRoles.Administrator : DashboardRoles.Operator;
        return new ClaimsPrincipal(new ClaimsIdentity(
        [
            new Claim(ClaimTypes.Name, $"{user.Identity.Name} (API key {prefix})"),
            new Claim(SignInClaims.Identity, ChangeAuthor.Identity(prefix, "api-key")),
            new Claim(ClaimTypes.Role, role),
        ], ApiKeyAuthenticationHandler.SchemeName));
    }

    /// <summary>"Grant.ExpiresAt" → "expiresAt", "Draft.Rules[2].Name" → "rules[2].name": the page's fields as the body's paths.</summary>
    static string BodyPath(string field)
    {
        var path = field switch
        {
            "Grant.InstanceId" => "instance",
            _ when field.StartsWith("Grant.", StringComparison.Ordinal) => field["Grant.".Length..],
            _ when field.StartsWith("Draft.", StringComparison.Ordinal) => field["Draft.".Length..],
            _ => field,
        };
        return string.Join('.', path.Split('.').Select(p => p.Length == 0 ? p : char.ToLowerInvariant(p[0]) + p[1..]));
    }

    static IResult Forbidden(UnauthorizedAccessException refused) =>
        TypedResults.Problem(refused.Message, statusCode: StatusCodes.Status403Forbidden, title: "Forbidden");

    static IResult NotFound(long id) =>
        TypedResults.Problem($"No waiver {id} is in force, awaiting approval or expired (a revoked waiver is in the audit log).",
            statusCode: StatusCodes.Status404NotFound, title: "Waiver not found");
}
