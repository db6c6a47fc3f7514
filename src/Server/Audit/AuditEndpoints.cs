using IfiDashboard.Shared.Security;
using System.ComponentModel;
using System.Globalization;
using System.Text;
using IfiDashboard.Client.Pages.Audit;
using IfiDashboard.Server.Api.Auth;
using IfiDashboard.Server.Api.Compliance;
using IfiDashboard.Server.Api.Http;
using IfiDashboard.Server.Api.Inventory;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Store.Audit;

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
        var records = await audit.QueryAsync(filter, before, limit + 1, ct);
        var items = records.Take(limit).Select(AuditView.ToItem).ToList();
        return TypedResults.Ok(new AuditEntriesPage(items, records.Count > limit ? items[^1].Id : null));
    }

    static async Task<IResult> ExportAsync(HttpContext context, AuditLog audit, CancellationToken ct)
    {
        var errors = new FieldErrors();
        var filter = ReadFilter(context.Request.Query, errors);
        if (errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());
        var csv = new StringBuilder();
        Csv.AppendRow(csv, ["id", "occurred_at_utc", "actor", "remote_address", "action", "target", "before", "after"]);
        long? before = null;
        while (true)
        {
            var page = await audit.QueryAsync(filter, before, AuditLog.MaxPageSize, ct);
            foreach (var r in page)
                Csv.AppendRow(csv,
                [
                    Csv.Plain(r.Id.ToString(CultureInfo.InvariantCulture)),
                    Csv.Plain(r.OccurredAt.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.fffZ", CultureInfo.InvariantCulture)),
                    Csv.Text(r.Actor), Csv.Text(r.RemoteAddress), Csv.Text(r.Action), Csv.Text(r.Target),
                    Csv.Text(r.Before), Csv.Text(r.After),
                ]);
            if (page.Count < AuditLog.MaxPageSize)
                break;
            before = page[^1].Id;
        }
        return TypedResults.Bytes(Encoding.UTF8.GetBytes(csv.ToString()), "text/csv; charset=utf-8; header=present", "audit.csv");
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
    public string? Limit { get; init; }
}
