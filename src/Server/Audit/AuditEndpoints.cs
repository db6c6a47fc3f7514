using IfiDashboard.Shared.Security;
using System.ComponentModel;
using System.Globalization;
using System.Text;
using IfiDashboard.Client.Pages.Audit;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.OpenApi;
using Microsoft.OpenApi;

namespace IfiDashboard.Server.Audit;

/// <summary>
/// The audit log read from outside the page: <c>GET /api/v1/audit</c> (scope <c>audit:read</c>, JSON pages) and
/// <c>GET /audit.csv</c> (the page's export, for administrators), both with the page's filters.
/// </summary>
public static class AuditEndpoints
{
    public const int DefaultLimit = 100;

    public static RouteGroupBuilder MapAuditApi(this RouteGroupBuilder api)
    {
        api.MapGet("/audit", ListAsync)
            .RequireScope(ApiScopes.AuditRead)
            .WithTags("Audit")
            .WithName("ListAuditEntries")
            .WithSummary("Audit entries newest first (who, when, from where, what, before and after), filtered by actor, action and time.")
            .Produces<AuditEntriesPage>()
            .ProducesValidationProblem()
            .ProducesAuthProblems();
        api.MapGet("/audit/refusals", RefusalsAsync)
            .RequireScope(ApiScopes.AuditRead)
            .WithTags("Audit")
            .WithName("ListRefusalCounts")
            .WithSummary("Refused sign-ins and collector requests, counted per hour, kind, source and reason (from, to: default the last 30 days, at most 366).")
            .Produces<RefusalCountsPage>()
            .ProducesValidationProblem()
            .ProducesAuthProblems();
        return api;
    }

    public static IEndpointRouteBuilder MapAuditExport(this IEndpointRouteBuilder app)
    {
        app.MapGet("/audit.csv", ExportAsync)
            .RequireAuthorization(DashboardRoles.Administrator)
            .ExcludeFromDescription();
        return app;
    }

    static async Task<IResult> ListAsync([AsParameters] AuditParameters parameters, HttpContext context, AuditLog audit,
        CancellationToken ct)
    {
        var errors = new FieldErrors();
        var filter = ReadFilter(context.Request.Query, errors);
        var limit = QueryValues.Int(context.Request.Query, "limit", 1, AuditLog.MaxPageSize, errors) ?? DefaultLimit;
        var before = ReadBefore(context.Request.Query, errors);
        if (errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());
        var page = await audit.PageAsync(filter, before, limit, ct);
        return TypedResults.Ok(new AuditEntriesPage(page.Entries.Select(AuditView.ToItem).ToList(), page.NextBefore));
    }

    static async Task<IResult> RefusalsAsync(HttpContext context, AuditLog audit, TimeProvider time, CancellationToken ct)
    {
        var errors = new FieldErrors();
        var window = TimeWindow.Resolve(TimeWindow.Read(context.Request.Query, errors), time.GetUtcNow(), errors);
        if (window is not { } w)
            return ApiProblems.Validation(errors.ToDictionary());
        return TypedResults.Ok(new RefusalCountsPage(w.From, w.To, await audit.RefusalCountsAsync(w.From, w.To, ct)));
    }

    static IResult ExportAsync(HttpContext context, AuditLog audit)
    {
        var errors = new FieldErrors();
        var filter = ReadFilter(context.Request.Query, errors);
        return errors.Any ? ApiProblems.Validation(errors.ToDictionary()) : new CsvExport(audit, filter);
    }

    /// <summary>
    /// The log as CSV, written a page at a time as it is read, so an export holds one page in memory however long the
    /// log is (until session 12 it built the whole file first).
    /// </summary>
    sealed class CsvExport(AuditLog audit, AuditFilter filter) : IResult
    {
        public async Task ExecuteAsync(HttpContext context)
        {
            var ct = context.RequestAborted;
            context.Response.ContentType = "text/csv; charset=utf-8; header=present";
            context.Response.Headers.ContentDisposition = "attachment; filename=audit.csv";
            await using var writer = new StreamWriter(context.Response.Body, new UTF8Encoding(false), 64 * 1024);
            var csv = new StringBuilder();
            Csv.AppendRow(csv, ["id", "occurred_at_utc", "actor", "actor_identity", "remote_address", "action", "target", "before", "after"]);
            long? before = null;
            do
            {
                var page = await audit.PageAsync(filter, before, AuditLog.MaxPageSize, ct);
                foreach (var r in page.Entries)
                    Csv.AppendRow(csv,
                    [
                        Csv.Plain(r.Id.ToString(CultureInfo.InvariantCulture)),
                        Csv.Plain(r.OccurredAt.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.fffZ", CultureInfo.InvariantCulture)),
                        Csv.Text(r.Actor), Csv.Text(r.ActorIdentity), Csv.Text(r.RemoteAddress), Csv.Text(r.Action), Csv.Text(r.Target),
                        Csv.Text(r.Before), Csv.Text(r.After),
                    ]);
                await writer.WriteAsync(csv, ct);
                await writer.FlushAsync(ct);
                csv.Clear();
                before = page.NextBefore;
            }
            while (before is not null);
        }
    }

    static AuditFilter ReadFilter(IQueryCollection query, FieldErrors errors)
    {
        var (from, to) = TimeWindow.Read(query, errors);
        return new AuditFilter(QueryValues.Text(query, "actor", errors), QueryValues.Text(query, "action", errors), from, to);
    }

    static long? ReadBefore(IQueryCollection query, FieldErrors errors)
    {
        if (QueryValues.Single(query, "before", errors) is not { } text)
            return null;
        if (long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id > 0)
            return id;
        errors.Add("before", "The nextBefore of an earlier answer: a positive entry id.");
        return null;
    }
}

/// <summary>A page of audit entries, newest first; pass <see cref="NextBefore"/> as <c>before</c> for older ones.</summary>
public sealed record AuditEntriesPage(IReadOnlyList<AuditItem> Entries, long? NextBefore);

/// <summary>Refusal counts of the hours that started in [From, To), oldest first.</summary>
public sealed record RefusalCountsPage(DateTimeOffset From, DateTimeOffset To, IReadOnlyList<RefusalCount> Counts);

public sealed record AuditParameters
{
    [Description("Only entries by this actor (exact), e.g. a user name, \"cmdb (API key abcd2345)\", \"system\".")]
    public string? Actor { get; init; }

    [Description("Only entries of this action (exact), e.g. instance.updated, waiver.granted, sign-in.")]
    public string? Action { get; init; }

    [Description("Entries at or after this ISO-8601 time (a date is midnight UTC).")]
    public string? From { get; init; }

    [Description("Entries before this ISO-8601 time.")]
    public string? To { get; init; }

    [Description("The nextBefore of an earlier answer: entries older than that one.")]
    public string? Before { get; init; }

    [Description("Most entries in one answer, 1 to 500; default 100.")]
    [ApiType(JsonSchemaType.Integer)]
    public string? Limit { get; init; }
}
