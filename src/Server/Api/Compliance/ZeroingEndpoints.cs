using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Restore;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Changes;
using IfiDashboard.Server.Compliance;

namespace IfiDashboard.Server.Api.Compliance;

/// <summary>Handlers of the compliance endpoints about zeroing: growth events, time lost and restore risk.</summary>
internal static class ZeroingEndpoints
{
    const int DefaultEventLimit = 200;
    const int MaxEventLimit = 1000;
    const int DefaultTop = 10;
    const int MaxTop = 500;
    static readonly string[] Groupings = ["instance", "database", "environment"];

    public static async Task<IResult> GrowthEventsAsync(string key, [AsParameters] GrowthEventParameters paging,
        [AsParameters] WindowParameters window, HttpContext context, IFleetAssessments assessments, ExternalKeys externalKeys,
        WindowedZeroing zeroing, CancellationToken ct)
    {
        var query = context.Request.Query;
        var errors = new FieldErrors();
        if (!InstanceLookup.IsWellFormed(key))
            errors.Add("key", "An external key (letters, digits and . _ : -) or an instance id.");
        var limit = QueryValues.Int(query, "limit", 1, MaxEventLimit, errors) ?? DefaultEventLimit;
        GrowthEventCursor? after = null;
        if (QueryValues.Single(query, "cursor", errors) is { } cursorText && (after = GrowthEventCursor.TryDecode(cursorText)) is null)
            errors.Add("cursor", "Not a cursor this API handed out; start again without one.");
        var bounds = TimeWindow.Read(query, errors);
        if (errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());

        var fleet = await assessments.GetAsync(ct);
        if (TimeWindow.Resolve(bounds, fleet.ComputedAt, errors) is not { From: var from, To: var to })
            return ApiProblems.Validation(errors.ToDictionary());
        var (found, problem) = await InstanceLookup.FindAsync(key, fleet, externalKeys, ct);
        if (found is null)
            return problem!;

        var events = await zeroing.GrowthEventsAsync(found.Instance, from, to, ct);
        var remaining = after is null ? events : events.Where(e => GrowthEventCursor.Compare(e.Event, after) > 0).ToList();
        var page = remaining.Take(limit).ToList();
        var nextCursor = remaining.Count > limit ? GrowthEventCursor.Of(page[^1].Event).Encode() : null;
        return Representations.Json(context, new GrowthEventPage(
            found.Instance.Registration.Id, found.ExternalKey, found.Instance.Registration.Name, from, to,
            ZeroingTotalsResource.From(ZeroingTotals.Of(events)), page.Select(ComplianceResources.GrowthEvent).ToList(), nextCursor));
    }

    public static async Task<IResult> TimeLostAsync([AsParameters] TimeLostParameters grouping,
        [AsParameters] WindowParameters window, HttpContext context,
        IFleetAssessments assessments, ExternalKeys externalKeys, WindowedZeroing zeroing, CancellationToken ct)
    {
        var query = context.Request.Query;
        var errors = new FieldErrors();
        var groupBy = QueryValues.Single(query, "groupBy", errors) ?? "instance";
        if (!Groupings.Contains(groupBy, StringComparer.Ordinal))
            errors.Add("groupBy", "instance, database or environment.");
        var bounds = TimeWindow.Read(query, errors);
        if (errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());

        var fleet = await assessments.GetAsync(ct);
        if (TimeWindow.Resolve(bounds, fleet.ComputedAt, errors) is not { From: var from, To: var to })
            return ApiProblems.Validation(errors.ToDictionary());
        var report = await zeroing.ReportAsync(fleet, from, to, ct);
        var keys = await externalKeys.ActiveAsync(ct);
        DateTimeOffset? EvidenceSince(long instanceId) => fleet.Find(instanceId)?.TimeLost.EvidenceSince;
        var groups = groupBy switch
        {
            "database" => report.Instances.SelectMany(i => i.Databases.Select(d => new TimeLostGroup(
                $"{i.InstanceName}/{d.DatabaseName}", i.InstanceId, i.InstanceName, keys.GetValueOrDefault(i.InstanceId),
                d.DatabaseId, d.DatabaseName, ZeroingTotalsResource.From(d.Totals), EvidenceSince(i.InstanceId)))),
            "environment" => report.Instances
                .GroupBy(i => fleet.Find(i.InstanceId)?.Registration.Environment ?? "", StringComparer.OrdinalIgnoreCase)
                .Select(g => new TimeLostGroup(g.Key, null, null, null, null, null,
                    ZeroingTotalsResource.From(g.Aggregate(new ZeroingTotals(), (sum, i) => sum.Plus(i.Totals))),
                    g.Select(i => EvidenceSince(i.InstanceId)).Any(s => s is null) ? null : g.Max(i => EvidenceSince(i.InstanceId)))),
            _ => report.Instances.Select(i => new TimeLostGroup(i.InstanceName, i.InstanceId, i.InstanceName,
                keys.GetValueOrDefault(i.InstanceId), null, null, ZeroingTotalsResource.From(i.Totals), EvidenceSince(i.InstanceId))),
        };
        var ordered = groups
            .OrderByDescending(g => g.Totals.TimeLostSeconds)
            .ThenBy(g => g.Key, StringComparer.OrdinalIgnoreCase)
            .ToList();
        return Representations.Json(context, new TimeLostReport(from, to, groupBy, ZeroingTotalsResource.From(report.Fleet), ordered));
    }

    public static async Task<IResult> RestoreRiskAsync([AsParameters] RestoreRiskParameters parameters, HttpContext context,
        IFleetAssessments assessments, ExternalKeys externalKeys, CancellationToken ct)
    {
        var errors = new FieldErrors();
        var top = QueryValues.Int(context.Request.Query, "top", 1, MaxTop, errors) ?? DefaultTop;
        if (errors.Any)
            return ApiProblems.Validation(errors.ToDictionary());

        var fleet = await assessments.GetAsync(ct);
        var keys = await externalKeys.ActiveAsync(ct);
        var databases = fleet.Instances.SelectMany(i => i.Restore.Databases).ToList();
        var stalls = fleet.Instances.SelectMany(i => i.Restore.GrowthStalls);
        return Representations.Json(context, new RestoreRiskReport(
            fleet.ComputedAt,
            top,
            databases.Sum(d => d.ExtraSeconds),
            RestoreRiskRanking.TopByRestoreTime(databases, top).Select(d => ComplianceResources.Restore(d, keys)).ToList(),
            RestoreRiskRanking.TopByGrowthStall(stalls, top).Select(s => ComplianceResources.Stall(s, keys)).ToList()));
    }
}
