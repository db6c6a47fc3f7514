using System.Globalization;
using System.Text;
using IfiDashboard.Client.Components;
using IfiDashboard.Client.Pages.Instances;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Store;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Remediation;
using IfiDashboard.Shared.Security;
using System.Text.Json;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.Extensions.Primitives;

namespace IfiDashboard.Server.Remediation;

/// <summary>
/// Remediation packs (docs/remediation.md): the dashboard's form (<see cref="FormPath"/>, posted from the grid with
/// its query string or from an instance page) and <c>POST /api/v1/remediation</c> take the same view, build the pack
/// from the current assessment and record which instances it covered, by whom and when, before answering;
/// <c>GET /api/v1/remediation</c> builds the same pack and records nothing.
/// </summary>
public static class RemediationEndpoints
{
    public const string FormPath = RemediationPackForm.Path;
    /// <summary>The form and query fields besides the grid's: one instance instead of a grid view, and what to answer.</summary>
    public const string InstanceKey = RemediationPackForm.InstanceKey, FormatKey = RemediationPackForm.FormatKey;
    public const string ScriptFormat = "script", PlanFormat = "plan", JsonFormat = "json";

    public static IEndpointRouteBuilder MapRemediationPackForm(this IEndpointRouteBuilder app)
    {
        // A form post, not a link: it records the pack, so it carries the antiforgery token a form binding demands.
        app.MapPost("/" + FormPath, PostFormAsync)
            .WithMetadata(new RequireAntiforgeryTokenAttribute())
            .Accepts<IFormCollection>(FormContentTypes[0], FormContentTypes[1..])
            .RequireAuthorization(DashboardRoles.Operator)
            .ExcludeFromDescription();
        return app;
    }

    public static RouteGroupBuilder MapRemediationApi(this RouteGroupBuilder api)
    {
        // Every GET is safe: a cross-site link (the session cookie rides a top-level GET under SameSite=Lax, and
        // Windows credentials ride any request behind IIS) must not record a pack and set "remediation pending".
        api.MapGet("/remediation", (HttpContext context, CancellationToken ct) =>
                AnswerAsync(context, ParseView(context.Request.Query), record: false, ct))
            .RequireScope(ApiScopes.RemediationRead)
            .WithTags("Remediation")
            .WithName("PreviewRemediationPack")
            .WithSummary("Builds a remediation pack for one instance or a grid view (the grid's query string) without recording it: the PowerShell script (format=script, the default), the change plan (plan) or the pack as JSON (json).")
            .Produces<PackResource>()
            .ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();
        // A JSON body (415 otherwise), so that no cross-site form can post it.
        api.MapPost("/remediation", (Dictionary<string, JsonElement> view, HttpContext context, CancellationToken ct) =>
                AnswerAsync(context, ParseView(AsQuery(view)), record: true, ct))
            .RequireScope(ApiScopes.RemediationWrite)
            .WithTags("Remediation")
            .WithName("GenerateRemediationPack")
            .WithSummary("Generates and records a remediation pack: the body names the view as the GET's query fields do ({\"instance\": 42} or {\"status\": \"NonCompliant\", \"env\": \"Production\", \"format\": \"plan\"}); the pack's id is in X-Remediation-Pack.")
            .Accepts<Dictionary<string, string>>("application/json")
            .Produces<PackResource>()
            .ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();
        api.MapGet("/remediation/packs/{id:long}", StatusAsync)
            .RequireScope(ApiScopes.RemediationRead)
            .WithTags("Remediation")
            .WithName("GetRemediationPackStatus")
            .WithSummary("A generated pack's instances, each pending until a poll shows the IFI state the pack was to reach, then confirmed.")
            .Produces<PackStatus>()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();
        return api;
    }

    static readonly string[] FormContentTypes = ["multipart/form-data", "application/x-www-form-urlencoded"];

    static async Task<IResult> PostFormAsync(HttpContext context, CancellationToken ct)
    {
        if (await ReadFormAsync(context) is not { } form)
            return Results.Empty;
        string? Value(string key) => form.TryGetValue(key, out var values) && values.Count > 0 ? values[0] : null;
        var errors = new FieldErrors();
        var format = Value(FormatKey) ?? ScriptFormat;
        if (format is not (ScriptFormat or PlanFormat)) errors.Add(FormatKey, "script or plan.");
        var instance = ParseId(Value(InstanceKey), errors);
        var query = InstanceQuery.Parse(Value);
        if (errors.Any) return TypedResults.BadRequest(string.Join(" ", errors.ToDictionary().Select(e => $"{e.Key}: {string.Join(" ", e.Value)}")));
        return await AnswerAsync(context, new PackView(instance, query, format, null), record: true, ct);
    }

    /// <summary>
    /// The form as RequestDelegateFactory's <c>[FromForm] IFormCollection</c> binding read it, or null with the status
    /// set. Read here because the Request Delegate Generator's binding lets a refused antiforgery token escape as a 500
    /// where the factory answered 400 (RemediationPackTests).
    /// </summary>
    static async Task<IFormCollection?> ReadFormAsync(HttpContext context)
    {
        // First: with a refused token, even asking whether the body is a form throws.
        if (context.Features.Get<IAntiforgeryValidationFeature>() is { IsValid: false })
        {
            context.Response.StatusCode = StatusCodes.Status400BadRequest;
            return null;
        }
        if (!context.Request.HasFormContentType)
        {
            context.Response.StatusCode = StatusCodes.Status415UnsupportedMediaType;
            return null;
        }
        try
        {
            return await context.Request.ReadFormAsync(context.RequestAborted);
        }
        catch (BadHttpRequestException e)
        {
            context.Response.StatusCode = e.StatusCode;
        }
        catch (Exception e) when (e is IOException or InvalidDataException)
        {
            context.Response.StatusCode = StatusCodes.Status400BadRequest;
        }
        return null;
    }

    /// <summary>One instance or a grid view, and the format to answer in, or the problems with them.</summary>
    sealed record PackView(long? Instance, InstanceQuery Query, string Format, IDictionary<string, string[]>? Errors);

    static IQueryCollection AsQuery(Dictionary<string, JsonElement> body) =>
        new QueryCollection(body.ToDictionary(e => e.Key, e => new StringValues(e.Value.ValueKind == JsonValueKind.String ? e.Value.GetString() : e.Value.GetRawText())));

    static PackView ParseView(IQueryCollection q)
    {
        var errors = new FieldErrors();
        var format = QueryValues.Single(q, FormatKey, errors) ?? ScriptFormat;
        if (format is not (ScriptFormat or PlanFormat or JsonFormat)) errors.Add(FormatKey, "script (the default), plan or json.");
        var instance = ParseId(QueryValues.Single(q, InstanceKey, errors), errors);
        var status = QueryValues.Text(q, InstanceQuery.StatusKey, errors);
        if (status is not null && status != InstanceGrid.StaleFilter && !Enum.TryParse<ComplianceStatus>(status, ignoreCase: true, out _))
            errors.Add(InstanceQuery.StatusKey, $"One of {string.Join(", ", Enum.GetNames<ComplianceStatus>())} or {InstanceGrid.StaleFilter}.");
        var version = QueryValues.Int(q, InstanceQuery.VersionKey, 9, 99, errors);
        var policy = QueryValues.Text(q, InstanceQuery.PolicyKey, errors);
        if (policy is not null && !Enum.TryParse<DesiredState>(policy, ignoreCase: true, out _))
            errors.Add(InstanceQuery.PolicyKey, $"One of {string.Join(", ", Enum.GetNames<DesiredState>())}.");
        string? Filter(string key) => key switch
        {
            InstanceQuery.StatusKey => status,
            InstanceQuery.VersionKey => version?.ToString(CultureInfo.InvariantCulture),
            InstanceQuery.PolicyKey => policy,
            InstanceQuery.EnvironmentKey or InstanceQuery.TagKey or InstanceQuery.OwnerKey or InstanceQuery.TextKey => QueryValues.Text(q, key, errors),
            _ => null, // a pack holds every matching instance: no sort, page or columns
        };
        var query = InstanceQuery.Parse(Filter);
        if (instance is not null && query.HasFilters) errors.Add(InstanceKey, "Either one instance or the grid's filters, not both.");
        return new PackView(instance, query, format, errors.Any ? errors.ToDictionary() : null);
    }

    static long? ParseId(string? text, FieldErrors errors)
    {
        if (text is null) return null;
        if (long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id > 0) return id;
        errors.Add(InstanceKey, "An instance id: a whole number above 0.");
        return null;
    }

    static async Task<IResult> AnswerAsync(HttpContext context, PackView view, bool record, CancellationToken ct)
    {
        if (view.Errors is { } errors) return ApiProblems.Validation(errors);
        var (instanceId, query, format) = (view.Instance, view.Query, view.Format);
        var services = context.RequestServices;
        var fleet = await services.GetRequiredService<IFleetAssessments>().GetAsync(ct);
        IReadOnlyList<InstanceAssessment> covered;
        string scope;
        if (instanceId is { } id)
        {
            if (fleet.Find(id) is not { } one)
                return TypedResults.Problem($"No active instance has the id {id}.", statusCode: StatusCodes.Status404NotFound, title: "Not found");
            covered = [one];
            scope = $"instance {id} ({one.Registration.Name})";
        }
        else
        {
            var byId = fleet.Instances.ToDictionary(i => i.Registration.Id);
            covered = GridSource.For(fleet).Matching(query).Select(row => byId[row.Id]).ToList();
            scope = query.ToUrl();
        }

        var actor = services.GetRequiredService<AuditActors>().Current();
        var pack = RemediationPack.Build(covered, scope, services.GetRequiredService<TimeProvider>().GetUtcNow(), actor.Name);
        long? packId = null;
        if (record && pack.Instances.Any())
        {
            packId = await services.GetRequiredService<RemediationPacks>().RecordAsync(pack, ct);
            // The pages show "remediation pending" from the next assessment on.
            services.GetRequiredService<FleetChanges>().Publish();
        }
        if (packId is { } recorded) context.Response.Headers[PackIdHeader] = recorded.ToString(CultureInfo.InvariantCulture);

        return format switch
        {
            // Windows PowerShell 5.1 reads a script without a byte order mark as the system's ANSI code page.
            ScriptFormat => TypedResults.File(Encoding.UTF8.GetPreamble().Concat(Encoding.UTF8.GetBytes(RemediationScript.Write(pack))).ToArray(),
                "text/plain; charset=utf-8", RemediationScript.FileName),
            PlanFormat => TypedResults.File(Encoding.UTF8.GetBytes(RemediationChangePlan.Write(pack)), "text/markdown; charset=utf-8",
                RemediationChangePlan.FileName),
            _ => TypedResults.Ok(PackResource.From(packId, pack)),
        };
    }

    /// <summary>The recorded pack's id, for its status (<c>/api/v1/remediation/packs/{id}</c>); absent when it covers nothing.</summary>
    public const string PackIdHeader = "X-Remediation-Pack";

    static async Task<IResult> StatusAsync(long id, RemediationPacks packs, CancellationToken ct) =>
        await packs.StatusAsync(id, ct) is { } status
            ? TypedResults.Ok(status)
            : TypedResults.Problem($"No remediation pack has the id {id}.", statusCode: StatusCodes.Status404NotFound, title: "Not found");
}

/// <summary>The pack as the API's JSON answer.</summary>
public sealed record PackResource(long? Id, DateTimeOffset GeneratedAt, string GeneratedBy, string Scope,
    IReadOnlyList<PackWindowResource> Windows, IReadOnlyList<SkippedInstance> Skipped)
{
    public static PackResource From(long? id, RemediationPack pack) => new(id, pack.GeneratedAt, pack.GeneratedBy, pack.Scope,
        pack.Windows.Select(w => new PackWindowResource(w.Environment, w.Instances.Select(i => new PackInstanceResource(
            i.Id, i.Name, i.Owner, i.ProductVersion, i.Change.Action.ToString(), i.Change.Principals, i.Change.Hosts,
            i.Change.ClusterRole, RemediationScript.RestartCommand(i.Change), i.Change.Verify.ToString(),
            i.Change.DesiredIfi.ToString())).ToList())).ToList(),
        pack.Skipped);
}

public sealed record PackWindowResource(string Environment, IReadOnlyList<PackInstanceResource> Instances);

public sealed record PackInstanceResource(long Id, string Name, string? Owner, string? ProductVersion, string Action,
    IReadOnlyList<string> Principals, IReadOnlyList<string> Hosts, string? ClusterRole, string Restart, string Verify,
    string DesiredIfi);
