using System.ComponentModel;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Api.Compliance;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Changes;
using IfiDashboard.Server.OpenApi;
using Microsoft.OpenApi;

namespace IfiDashboard.Server.Api.Changes;

/// <summary><c>/api/v1/changes</c>: what changed since a client's cursor (statuses, IFI timeline, inventory); scope <c>read</c>.</summary>
public static class ChangesApi
{
    public const int DefaultLimit = 100;
    public const int MaxLimit = 1000;

    public static RouteGroupBuilder MapChangesApi(this RouteGroupBuilder api)
    {
        api.MapGet("/changes", ListAsync)
            .RequireScope(ApiScopes.Read)
            .WithTags("Changes")
            .WithName("ListChanges")
            .WithSummary("Changes after a cursor, oldest first: compliance status transitions, IFI timeline and inventory changes.")
            .Produces<ChangePage>()
            .Produces(StatusCodes.Status304NotModified)
            .ProducesValidationProblem()
            .ProducesAuthProblems();
        return api;
    }

    static async Task<IResult> ListAsync([AsParameters] ChangesParameters parameters, HttpContext context,
        ChangeRecorder recorder, ChangeJournal journal, CancellationToken ct)
    {
        var query = context.Request.Query;
        var errors = new FieldErrors();
        var limit = QueryValues.Int(query, "limit", 1, MaxLimit, errors) ?? DefaultLimit;
        var since = ChangeCursor.Beginning;
        if (QueryValues.Single(query, "since", errors) is { } text && !ChangeCursor.TryDecode(text, out since))
            errors.Add("since", "Not a cursor this API handed out (a nextCursor); omit it to start from the beginning.");
        if (errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());

        await recorder.CatchUpAsync(ct);
        // One more than a page from each source tells whether anything is left after the page.
        var journalRows = await journal.ReadJournalAsync(since.JournalId, limit + 1, ct);
        var timelineRows = await journal.ReadTimelineAsync(since.TimelineId, limit + 1, ct);
        return Representations.Json(context, ChangeFeed.Page(journalRows, timelineRows, since, limit));
    }
}

public sealed record ChangesParameters
{
    [Description("The nextCursor of an earlier answer; omit to start from the beginning.")]
    public string? Since { get; init; }

    [Description("Most entries in one answer, 1 to 1000; default 100.")]
    [ApiType(JsonSchemaType.Integer)]
    public string? Limit { get; init; }
}
