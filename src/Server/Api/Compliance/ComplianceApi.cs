using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Server.Api.Inventory;
using IfiDashboard.Store.Changes;

namespace IfiDashboard.Server.Api.Compliance;

/// <summary>
/// <c>/api/v1/compliance</c>: the fleet assessment for auditors and scripts. Every endpoint needs <c>read</c>, answers
/// with an ETag (If-None-Match → 304), and reads the latest background assessment; growth events and time lost for
/// arbitrary windows are computed on request.
/// </summary>
public static class ComplianceApi
{
    public static RouteGroupBuilder MapComplianceApi(this RouteGroupBuilder api)
    {
        var group = api.MapGroup("/compliance").WithTags("Compliance").RequireScope(ApiScopes.Read);

        group.MapGet("/summary", SummaryAsync)
            .WithName("GetComplianceSummary")
            .WithSummary("Fleet summary: counts by status, desired state, environment, tag, version and owner; time lost in the last 7/30/90 days.")
            .Produces<ComplianceSummary>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesAuthProblems();

        group.MapGet("/instances", ListAsync)
            .WithName("ListInstanceCompliance")
            .WithSummary("Instance compliance with filters and cursor paging (id order).")
            .Produces<ComplianceRowPage>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesValidationProblem()
            .ProducesAuthProblems();

        group.MapGet("/instances/{key}", GetAsync)
            .WithName("GetInstanceCompliance")
            .WithSummary("One instance's compliance with reasons, remediation, zeroing rate, time lost and restore risk; key = external key or id.")
            .Produces<InstanceComplianceResource>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        group.MapGet("/instances/{key}/growth-events", ZeroingEndpoints.GrowthEventsAsync)
            .WithName("ListGrowthEvents")
            .WithSummary("An instance's autogrowth events in [from, to) (default the last 30 days, at most 366), each with its zeroing verdict.")
            .Produces<GrowthEventPage>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        group.MapGet("/time-lost", ZeroingEndpoints.TimeLostAsync)
            .WithName("GetTimeLost")
            .WithSummary("Time lost to zeroing in [from, to), fleet-wide and grouped by instance, database or environment.")
            .Produces<TimeLostReport>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesValidationProblem()
            .ProducesAuthProblems();

        group.MapGet("/restore-risk", ZeroingEndpoints.RestoreRiskAsync)
            .WithName("GetRestoreRisk")
            .WithSummary("The fleet's top databases by extra restore time and data files by next-autogrowth stall.")
            .Produces<RestoreRiskReport>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesValidationProblem()
            .ProducesAuthProblems();

        group.MapGet("/export", ExportAsync)
            .WithName("ExportInstanceCompliance")
            .WithSummary("Every matching instance's compliance row, as JSON (default) or CSV by Accept.")
            .Produces<List<ComplianceRow>>(StatusCodes.Status200OK, ExportFormats.Json, ExportFormats.Csv)
            .Produces(StatusCodes.Status304NotModified)
            .ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status406NotAcceptable)
            .ProducesAuthProblems();

        return group;
    }

    static async Task<IResult> SummaryAsync(HttpContext context, IFleetAssessments assessments, CancellationToken ct) =>
        Representations.Json(context, ComplianceSummaries.Build(await assessments.GetAsync(ct)));

    static async Task<IResult> ListAsync([AsParameters] ComplianceListParameters paging,
        [AsParameters] ComplianceFilterParameters filters, HttpContext context,
        IFleetAssessments assessments, ExternalKeys externalKeys, CancellationToken ct)
    {
        var errors = new FieldErrors();
        if (ComplianceFilter.Parse(context.Request.Query, paged: true, errors) is not { } filter)
            return ApiProblems.Validation(errors.ToDictionary());

        var fleet = await assessments.GetAsync(ct);
        var keys = await externalKeys.ActiveAsync(ct);
        var matching = fleet.Instances.Where(filter.Matches).OrderBy(i => i.Registration.Id).Take(filter.Limit + 1).ToList();
        var page = matching.Take(filter.Limit).ToList();
        var nextCursor = matching.Count > filter.Limit ? PageCursor.Encode(page[^1].Registration.Id) : null;
        var rows = page.Select(i => ComplianceResources.Row(i, keys.GetValueOrDefault(i.Registration.Id), fleet.ComputedAt)).ToList();
        return Representations.Json(context, new ComplianceRowPage(rows, nextCursor));
    }

    static async Task<IResult> GetAsync(string key, HttpContext context, IFleetAssessments assessments,
        ExternalKeys externalKeys, CancellationToken ct)
    {
        if (!InstanceLookup.IsWellFormed(key))
            return ApiProblems.Validation("key", "An external key (letters, digits and . _ : -) or an instance id.");
        var fleet = await assessments.GetAsync(ct);
        var (found, problem) = await InstanceLookup.FindAsync(key, fleet, externalKeys, ct);
        if (found is null)
            return problem!;
        return Representations.Json(context, ComplianceResources.Detail(found.Instance, found.ExternalKey, found.Keys, fleet.ComputedAt));
    }

    static async Task<IResult> ExportAsync([AsParameters] ComplianceFilterParameters parameters, HttpContext context,
        IFleetAssessments assessments, ExternalKeys externalKeys, CancellationToken ct)
    {
        var errors = new FieldErrors();
        if (ComplianceFilter.Parse(context.Request.Query, paged: false, errors) is not { } filter)
            return ApiProblems.Validation(errors.ToDictionary());
        context.Response.Headers.Vary = "Accept";
        if (ExportFormats.Negotiate(context.Request) is not { } format)
            return TypedResults.Problem(
                $"The export is available as {ExportFormats.Json} (the default) or {ExportFormats.Csv}; the Accept header allows neither.",
                statusCode: StatusCodes.Status406NotAcceptable, title: "Not acceptable");

        var fleet = await assessments.GetAsync(ct);
        var keys = await externalKeys.ActiveAsync(ct);
        var rows = fleet.Instances.Where(filter.Matches).OrderBy(i => i.Registration.Id)
            .Select(i => ComplianceResources.Row(i, keys.GetValueOrDefault(i.Registration.Id), fleet.ComputedAt))
            .ToList();
        if (format == ExportFormat.Json)
            return Representations.Json(context, rows);
        var fileName = $"ifi-compliance-{fleet.ComputedAt.UtcDateTime:yyyyMMdd'T'HHmmss'Z'}.csv";
        return Representations.Bytes(context, ComplianceCsv.Write(rows), "text/csv; charset=utf-8; header=present", fileName);
    }
}
