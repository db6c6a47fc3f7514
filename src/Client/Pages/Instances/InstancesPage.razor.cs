using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.QuickGrid;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The fleet as a QuickGrid. <see cref="InstanceQuery"/> is the view's one truth: read from the address, changed by the
/// grid's sort buttons, its paginator and the column choice, and written back to the address in place (a replaced
/// history entry), so a copied address reopens the same view. Filters are a GET form, a new history entry each.
/// Interactive, the grid re-reads in place as assessments land, keeping the view.
/// </summary>
public partial class InstancesPage
{
    [SupplyParameterFromQuery(Name = InstanceQuery.StatusKey)] public string? Status { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.EnvironmentKey)] public string? Environment { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.TagKey)] public string? Tag { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.VersionKey)] public string? Version { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.OwnerKey)] public string? Owner { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.PolicyKey)] public string? Policy { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.TextKey)] public string? Text { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.SortKey)] public string? Sort { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.DirectionKey)] public string? Direction { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.PageKey)] public string? PageNumber { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.PageSizeKey)] public string? PageSize { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.ColumnsKey)] public string? Columns { get; set; }

    static readonly Dictionary<GridColumn, string> Titles = new()
    {
        [GridColumn.Name] = "Instance", [GridColumn.Status] = "Status", [GridColumn.Environment] = "Environment",
        [GridColumn.Owner] = "Owner", [GridColumn.Tags] = "Tags", [GridColumn.Version] = "Version", [GridColumn.Ifi] = "IFI",
        [GridColumn.Policy] = "Policy", [GridColumn.TimeLost] = "Lost, 30 d", [GridColumn.Restore] = "Restore risk",
        [GridColumn.LastPoll] = "Last poll (UTC)",
    };

    InstanceQuery _query = new();
    InstanceQuery? _asked;
    GridSource? _source;
    IReadOnlyList<InstanceGridRow>? _rows;
    FilterOptions? _options;
    int _matching;
    /// <summary>The view's instances, every page: what "Verify now" polls.</summary>
    IReadOnlyList<long> MatchingIds { get; set; } = [];
    string? _loadError;

    QuickGrid<InstanceGridRow>? _grid;
    PaginationState? _pagination;
    // A new provider for each assessment: QuickGrid queries again when its provider changes, and only then.
    GridItemsProvider<InstanceGridRow>? _provider;
    // Changed when the view comes from outside the grid (the address, the column choice): a new grid starts from it.
    int _gridVersion;

    string? QueryValue(string key) => key switch
    {
        InstanceQuery.StatusKey => Status,
        InstanceQuery.EnvironmentKey => Environment,
        InstanceQuery.TagKey => Tag,
        InstanceQuery.VersionKey => Version,
        InstanceQuery.OwnerKey => Owner,
        InstanceQuery.PolicyKey => Policy,
        InstanceQuery.TextKey => Text,
        InstanceQuery.SortKey => Sort,
        InstanceQuery.DirectionKey => Direction,
        InstanceQuery.PageKey => PageNumber,
        InstanceQuery.PageSizeKey => PageSize,
        InstanceQuery.ColumnsKey => Columns,
        _ => null,
    };

    protected override async Task LoadAsync()
    {
        var asked = InstanceQuery.Parse(QueryValue);
        try
        {
            var fleet = await Assessments.GetAsync(PageClosed);
            var source = GridSource.For(fleet);
            // An assessment can land while the grid's own change of address is on its way, with the old address still
            // here: only an address that changed, to something the grid did not write (a link, Back), resets the view.
            if (_pagination is null || (asked != _asked && asked != _query))
            {
                _query = asked with { Page = source.Page(asked).Page };
                _pagination = new PaginationState { ItemsPerPage = _query.PageSize };
                await _pagination.SetCurrentPageIndexAsync(_query.Page - 1);
                _gridVersion++;
            }
            _asked = asked;
            if (source != _source)
            {
                _source = source;
                _provider = request => ValueTask.FromResult(Provide(source, request));
            }
            _rows = source.Rows;
            _options = source.Options;
            var matching = source.Matching(_query);
            _matching = matching.Count;
            MatchingIds = matching.Select(row => row.Id).ToList();
            _loadError = null;
        }
        catch (Exception e)
        {
            // The page still renders and says what is wrong; the store's health is on /readyz.
            _loadError = Failures.Logged("Reading the instances", e);
        }
    }

    /// <summary>The page QuickGrid asks for, in the view's filters and order (<see cref="GridSource"/> keeps each order).</summary>
    GridItemsProviderResult<InstanceGridRow> Provide(GridSource source, GridItemsProviderRequest<InstanceGridRow> request)
    {
        var page = source.Page(_query with { Page = request.StartIndex / _query.PageSize + 1 });
        _query = _query with { Page = page.Page };
        KeepAddressInStep();
        return GridItemsProviderResult.From([.. page.Rows], page.Matching);
    }

    async Task SortAsync(GridColumn column, ColumnBase<InstanceGridRow> header)
    {
        _query = _query.SortedBy(column);
        if (_pagination is { CurrentPageIndex: > 0 }) await _pagination.SetCurrentPageIndexAsync(0);
        if (_grid is not null) await _grid.SortByColumnAsync(header, SortedDirection);
    }

    void ShowColumn(GridColumn column, bool shown)
    {
        _query = _query with { Columns = _query.Columns.With(column, shown) };
        // A new grid: QuickGrid forgets the sort of a column that leaves it, and the new one reads it from the view.
        _gridVersion++;
        KeepAddressInStep();
    }

    /// <summary>Writes the view to the address, replacing the history entry, so Back leaves the grid instead of undoing clicks.</summary>
    void KeepAddressInStep()
    {
        if (!RendererInfo.IsInteractive) return;
        // Following a link out of the grid, the query parameters empty before the page goes: that is no view to keep.
        if (Navigation.ToBaseRelativePath(Navigation.Uri).Split('?', '#')[0] != InstanceQuery.GridPath) return;
        var address = Navigation.ToAbsoluteUri(_query.ToUrl()).AbsoluteUri;
        if (address != Navigation.ToAbsoluteUri(Navigation.Uri).AbsoluteUri) Navigation.NavigateTo(address, replace: true);
    }

    bool Shows(GridColumn column) => _query.Columns.Shows(column);
    bool IsSortedBy(GridColumn column) => _query.Sort == column;
    SortDirection SortedDirection => _query.Descending ? SortDirection.Descending : SortDirection.Ascending;

    int FirstShown => _pagination is null ? 0 : _pagination.CurrentPageIndex * _pagination.ItemsPerPage + 1;
    int LastShown => Math.Min(FirstShown + (_pagination?.ItemsPerPage ?? 0) - 1, _matching);

    /// <summary>The view without its page and columns: the export holds every matching row and every column.</summary>
    string ExportHref => (_query with { Page = 1, PageSize = InstanceQuery.DefaultPageSize, Columns = GridColumns.All }).ToUrl(InstanceCsv.ExportPath);
}
