using IfiDashboard.Client.Components;
using IfiDashboard.Client.Pages.Instances;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Shared.Inventory;
using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages.Changes;

/// <summary>A change with the instance it happened on and what the policy in force wants there.</summary>
public sealed record ChangeRow(TimelineChange Change, InstanceRegistration Instance, DesiredState Desired);

/// <summary>
/// The fleet changes page: every active instance's timeline in one list, filtered by time window, environment, tag
/// and kind of change from the query string (a GET form: every view is a link). Environment and tag match as the grid's
/// filters do.
/// </summary>
public partial class ChangesPage
{
    const int MaxRows = 500;

    [Inject] IFleetTimeline Timeline { get; set; } = null!;
    [Inject] IFleetAssessments Assessments { get; set; } = null!;
    [Inject] TimeProvider Time { get; set; } = null!;

    [SupplyParameterFromQuery(Name = ChangesQuery.DaysKey)] public string? Days { get; set; }
    [SupplyParameterFromQuery(Name = ChangesQuery.EnvironmentKey)] public string? Environment { get; set; }
    [SupplyParameterFromQuery(Name = ChangesQuery.TagKey)] public string? Tag { get; set; }
    [SupplyParameterFromQuery(Name = ChangesQuery.KindKey)] public string? Kind { get; set; }

    ChangesQuery _query = new();
    FilterOptions? _options;
    IReadOnlyList<ChangeRow>? _rows;
    string? _loadError;

    protected override async Task OnParametersSetAsync()
    {
        _query = ChangesQuery.Parse(Days, Environment, Tag, Kind);
        try
        {
            var fleet = await Assessments.GetAsync(PageClosed);
            var grid = GridSource.For(fleet);
            _options = grid.Options;
            // By id once: a year of changes across the fleet is looked up here, one change at a time.
            var matching = grid.Matching(new InstanceQuery { Environment = _query.Environment, Tag = _query.Tag })
                .Select(row => row.Id).ToHashSet();
            var instances = fleet.Instances.Where(i => matching.Contains(i.Registration.Id)).ToDictionary(i => i.Registration.Id);
            var changes = await Timeline.ReadAsync(Time.GetUtcNow().AddDays(-_query.Days), PageClosed);
            _rows = changes
                .Where(c => instances.ContainsKey(c.InstanceId) && (_query.Kind is null || ChangesQuery.KindOf(c) == _query.Kind))
                .Select(c => new ChangeRow(c, instances[c.InstanceId].Registration, instances[c.InstanceId].Compliance.Policy.Desired))
                .ToList();
            _loadError = null;
        }
        catch (Exception e)
        {
            // The page still renders and says what is wrong; the store's health is on /readyz.
            _loadError = Failures.Logged("Reading the changes", e);
        }
    }

    string Summary
    {
        get
        {
            var counts = _rows!.GroupBy(r => ChangesQuery.KindOf(r.Change)).ToDictionary(g => g.Key, g => g.Count());
            var parts = ChangesQuery.Kinds.Where(k => counts.ContainsKey(k.Value)).Select(k => $"{k.Label} {Quantities.Count(counts[k.Value])}");
            var window = ChangesQuery.Windows.First(w => w.Days == _query.Days).Label.ToLowerInvariant();
            return $"{Quantities.Count(_rows!.Count)} {(_rows.Count == 1 ? "change" : "changes")} in the {window}: {string.Join(", ", parts)}.";
        }
    }

    static string KindLabel(TimelineChange change) =>
        ChangesQuery.Kinds.First(k => k.Value == ChangesQuery.KindOf(change)).Label;

    /// <summary>
    /// IFI lost is the fix where the policy in force forbids IFI, and bad news where it requires it: coloured by what
    /// the instance's policy wants today (the page judges each change by the policy now, as the overview does).
    /// </summary>
    static string KindCss(ChangeRow row) => (ChangesQuery.KindOf(row.Change), row.Desired) switch
    {
        (ChangesQuery.IfiLost, DesiredState.Required) or (ChangesQuery.IfiGained, DesiredState.Forbidden) => "st-bad",
        (ChangesQuery.IfiGained, DesiredState.Required) or (ChangesQuery.IfiLost, DesiredState.Forbidden) => "st-ok",
        (ChangesQuery.IfiLost or ChangesQuery.IfiGained, _) => "st-na",
        (ChangesQuery.Account, _) => "st-unknown",
        _ => "st-na",
    };
}
