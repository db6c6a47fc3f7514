using System.Globalization;
using System.Text;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Client.Pages.Reports;
using IfiDashboard.Store.Reports;
using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Server.Reports;

/// <summary>
/// <c>GET /api/v1/reports/evidence</c>: the auditors' report of a period (docs/reports.md). It holds the audit log's
/// entries of the period, so it takes the audit log's scope, <c>audit:read</c>.
/// </summary>
public static class EvidenceReportEndpoints
{
    /// <summary>The report's SHA-256 (<see cref="EvidenceManifest.Report"/>), on the JSON and the CSV answer alike.</summary>
    public const string ReportHashHeader = "X-Report-SHA256";

    public static RouteGroupBuilder MapEvidenceReportApi(this RouteGroupBuilder api)
    {
        api.MapGet("/reports/evidence", GetAsync)
            .RequireScope(ApiScopes.AuditRead)
            .WithTags("Reports")
            .WithName("GetEvidenceReport")
            .WithSummary("For a period and scope: the policy versions in force, the waivers, each instance's daily statuses and coverage with the evidence of its last poll, and every audited change, with a signed SHA-256 manifest. format=csv gives the instances, format=manifest the signed manifest, format=signature its signature.")
            .Produces<EvidenceReport>()
            .ProducesValidationProblem()
            .ProducesAuthProblems();
        api.MapGet("/reports/evidence/signing-key", (EvidenceSigningKey key) => TypedResults.Text(key.PublicKeyPem, "application/x-pem-file"))
            .RequireScope(ApiScopes.AuditRead)
            .WithTags("Reports")
            .WithName("GetEvidenceSigningKey")
            .WithSummary("The public key (PEM) that verifies an evidence report's manifest signature: openssl dgst -sha256 -verify key.pem -signature manifest.sig manifest.")
            .Produces<string>(contentType: "application/x-pem-file")
            .ProducesAuthProblems();
        return api;
    }

    static async Task<IResult> GetAsync(HttpContext context, EvidenceReports reports, CancellationToken ct)
    {
        var query = context.Request.Query;
        var errors = new FieldErrors();
        var (from, to) = TimeWindow.Read(query, errors);
        var environment = QueryValues.Text(query, "environment", errors);
        var tag = QueryValues.Text(query, "tag", errors);
        var format = QueryValues.Single(query, "format", errors) ?? "json";
        if (format is not ("json" or "csv" or "manifest" or "signature"))
            errors.Add("format", "json (the default), csv, manifest or signature.");
        // A report is compared with a later copy of itself: its bounds are always given, never a default.
        if (from is null && !errors.Any) errors.Add("from", "Required: the period's start (inclusive, UTC), e.g. 2026-10-01.");
        if (to is null && !errors.Any) errors.Add("to", "Required: the period's end (exclusive, UTC), e.g. 2026-11-01.");
        if (from is { } start && to is { } end) TimeWindow.Resolve((start, end), end, errors);
        if (errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());
        var report = await reports.BuildAsync(from!.Value, to!.Value, environment, tag, ct);
        context.Response.Headers[ReportHashHeader] = report.Manifest.Report;
        return format switch
        {
            "csv" => TypedResults.Text(InstancesCsv(report), "text/csv; charset=utf-8"),
            "manifest" => TypedResults.Text(report.Manifest.Text(), "text/plain; charset=utf-8"),
            "signature" => TypedResults.Bytes(Convert.FromBase64String(report.Manifest.Signature), "application/octet-stream"),
            _ => TypedResults.Ok(report),
        };
    }

    static readonly string[] Statuses = Enum.GetNames<ComplianceStatus>();
    static readonly string[] Coverages = Enum.GetNames<DayCoverage>();

    /// <summary>One row per instance: its daily statuses and coverage counted, its worst status, and the evidence of its last poll.</summary>
    public static string InstancesCsv(EvidenceReport report)
    {
        var csv = new StringBuilder();
        Csv.AppendRow(csv, ["id", "name", "externalKey", "environment", "owner", "worstStatus",
            .. Statuses.Select(s => $"days{s}"), .. Coverages.Select(c => $"days{c}"), "lastPollAt", "collector", "outcome", "ifiState", "ifiEvidence"]);
        foreach (var i in report.Instances)
            Csv.AppendRow(csv,
            [
                Csv.Plain(i.Id.ToString(CultureInfo.InvariantCulture)), Csv.Text(i.Name),
                Csv.Text(i.ExternalKey), Csv.Text(i.Environment), Csv.Text(i.Owner),
                Csv.Plain(i.WorstStatus),
                .. Statuses.Select(s => Csv.Plain(i.DaysByStatus.GetValueOrDefault(s).ToString(CultureInfo.InvariantCulture))),
                .. Coverages.Select(c => Csv.Plain(i.DaysByCoverage.GetValueOrDefault(c).ToString(CultureInfo.InvariantCulture))),
                Csv.Plain(i.LastPoll?.FinishedAt.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.FFFFFFF'Z'", CultureInfo.InvariantCulture)),
                Csv.Text(i.LastPoll?.Collector), Csv.Plain(i.LastPoll?.Outcome),
                Csv.Plain(i.LastPoll?.IfiState), Csv.Text(i.LastPoll?.IfiEvidence),
            ]);
        return csv.ToString();
    }
}
