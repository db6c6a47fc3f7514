using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The grid's rows, filter choices and sort orders for one fleet assessment, built once and shared by every request
/// until the next assessment replaces it. At 10,000 instances building rows and sorting the fleet on each request
/// cost more than rendering the page; an assessment never changes, so neither do these.
/// </summary>
public sealed class GridSource
{
    // Keyed by the assessment object itself: a new assessment gets new rows, and the old ones go with it.
    static readonly ConditionalWeakTable<FleetAssessment, GridSource> Sources = new();

    readonly ConcurrentDictionary<(GridColumn Sort, bool Descending), IReadOnlyList<InstanceGridRow>> _orders = new();

    GridSource(FleetAssessment fleet)
    {
        Rows = fleet.Instances.Select(InstanceGridRow.From).ToList();
        Options = FilterOptions.From(Rows);
    }

    public IReadOnlyList<InstanceGridRow> Rows { get; }
    public FilterOptions Options { get; }

    public static GridSource For(FleetAssessment fleet) => Sources.GetValue(fleet, f => new GridSource(f));

    public GridPage Page(InstanceQuery query) => InstanceGrid.ApplySorted(SortedFor(query), query);

    /// <summary>Every row the query's filters match, in its order, on every page: what the CSV export holds.</summary>
    public IReadOnlyList<InstanceGridRow> Matching(InstanceQuery query) => InstanceGrid.MatchingSorted(SortedFor(query), query);

    IReadOnlyList<InstanceGridRow> SortedFor(InstanceQuery query) =>
        _orders.GetOrAdd((query.Sort, query.Descending), _ => InstanceGrid.Sorted(Rows, query));
}
