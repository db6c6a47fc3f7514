using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The fleet as a grid. Filters, sort and page come from the query string (a GET form and links), so every view
/// works without script; interactive, the grid re-renders in place as assessments land, keeping the view.
/// </summary>
public partial class InstancesPage
{
    [SupplyParameterFromQuery(Name = InstanceQuery.StatusKey)] public string? Status { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.EnvironmentKey)] public string? Environment { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.TagKey)] public string? Tag { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.VersionKey)] public int? Version { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.OwnerKey)] public string? Owner { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.TextKey)] public string? Text { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.SortKey)] public string? Sort { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.DirectionKey)] public string? Direction { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.PageKey)] public int? PageNumber { get; set; }
    [SupplyParameterFromQuery(Name = InstanceQuery.PageSizeKey)] public int? PageSize { get; set; }

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

    /// <summary>The view without its page: the export holds every matching row.</summary>
    string ExportHref => (_query with { Page = 1, PageSize = InstanceQuery.DefaultPageSize }).ToUrl(InstanceCsv.ExportPath);
}
