using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The fleet as a grid. Filters, sort and page come from the query string (a GET form and links), so every view
/// works without script; interactive, the grid re-renders in place as assessments land, keeping the view.
/// </summary>
public partial class InstancesPage
{
    [SupplyParameterFromQuery(Name = "status")] public string? Status { get; set; }
    [SupplyParameterFromQuery(Name = "env")] public string? Environment { get; set; }
    [SupplyParameterFromQuery(Name = "tag")] public string? Tag { get; set; }
    [SupplyParameterFromQuery(Name = "version")] public int? Version { get; set; }
    [SupplyParameterFromQuery(Name = "owner")] public string? Owner { get; set; }
    [SupplyParameterFromQuery(Name = "q")] public string? Text { get; set; }
    [SupplyParameterFromQuery(Name = "sort")] public string? Sort { get; set; }
    [SupplyParameterFromQuery(Name = "dir")] public string? Direction { get; set; }
    [SupplyParameterFromQuery(Name = "page")] public int? PageNumber { get; set; }
    [SupplyParameterFromQuery(Name = "size")] public int? PageSize { get; set; }

    InstanceQuery _query = new();
    IReadOnlyList<InstanceGridRow>? _rows;
    FilterOptions? _options;
    GridPage? _page;
    string? _loadError;

    protected override async Task LoadAsync()
    {
        _query = InstanceQuery.Parse(Status, Environment, Tag, Version, Owner, Text, Sort, Direction, PageNumber, PageSize);
        try
        {
            var fleet = await Assessments.GetAsync(CancellationToken.None);
            var source = GridSource.For(fleet);
            _rows = source.Rows;
            _options = source.Options;
            _page = source.Page(_query);
            _loadError = null;
        }
        catch (Exception e)
        {
            // The page still renders and says what is wrong; the store's health is on /readyz.
            _loadError = e.Message;
        }
    }

    string PageHref(int page) => (_query with { Page = page }).ToUrl();
}
