using IfiDashboard.Client.Pages.Instances;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Shared.Security;

namespace IfiDashboard.Server.Dashboard;

/// <summary>
/// <c>/instances/export.csv</c> with the grid's query string: every instance the grid's filters match, in its order,
/// across all its pages, from the same assessment the grid shows.
/// </summary>
public static class InstancesExport
{
    public static IEndpointRouteBuilder MapInstancesExport(this IEndpointRouteBuilder app)
    {
        app.MapGet("/" + InstanceCsv.ExportPath, ExportAsync)
            .RequireAuthorization(DashboardRoles.Viewer)
            .ExcludeFromDescription();
        return app;
    }

    static async Task<IResult> ExportAsync(HttpRequest request, IFleetAssessments assessments, FactsReader facts, CancellationToken ct)
    {
        string? Value(string key) => request.Query.TryGetValue(key, out var values) ? values.ToString() : null;
        var query = InstanceQuery.Parse(Value);
        var rows = GridSource.For(await assessments.GetAsync(ct)).Matching(query);
        var ifiSince = new Dictionary<long, DateTimeOffset>();
        foreach (var polls in await facts.ObservationsAsync(null, ct))
            if (TimelineBuilder.IfiSince(polls.Key, polls.ToList()) is { } since)
                ifiSince[polls.Key] = since;
        return TypedResults.File(InstanceCsv.Utf8File(rows, ifiSince), "text/csv; charset=utf-8", InstanceCsv.FileName);
    }
}
