using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Assessment;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Pages.Detail;

/// <summary>
/// One instance, down to the file and the growth event: why it has the status it has and what to do. Interactive, its
/// status follows each assessment as polls land.
/// </summary>
public partial class InstanceDetailPage
{
    public const int EventsPerPage = 50;

    [Inject] IInstanceDetails Details { get; set; } = null!;
    [Parameter] public long Id { get; set; }
    [SupplyParameterFromQuery(Name = "events")] public string? EventsPageText { get; set; }
    int EventsPage => QueryNumber.Count(EventsPageText) ?? 1;
    /// <summary>The growth explorer's window, by its slug ("7d"); the default when absent.</summary>
    [SupplyParameterFromQuery(Name = "growth")] public string? GrowthWindowSlug { get; set; }
    /// <summary>Present while prerendered on the server; lets a missing instance answer 404, not 200.</summary>
    [CascadingParameter] public HttpContext? HttpContext { get; set; }

    InstanceDetail? _detail;
    /// <summary>Set when this registration reaches the same server as an earlier one: the one the figures count.</summary>
    IfiDashboard.Shared.Inventory.InstanceRegistration? _countedAs;
    bool _loaded;
    string? _loadError;

    protected override async Task LoadAsync()
    {
        try
        {
            _detail = await Details.GetAsync(Id, GrowthWindows.Parse(GrowthWindowSlug), PageClosed) is { } detail
                ? PollFailureText.AsSeenBy(detail, await ReaderAsync())
                : null;
            _countedAs = _detail is null ? (await Assessments.GetAsync(PageClosed)).DuplicateOf.GetValueOrDefault(Id) : null;
            _loaded = true;
            _loadError = null;
            if (_detail is null && _countedAs is null && HttpContext is { Response.HasStarted: false } http)
                http.Response.StatusCode = StatusCodes.Status404NotFound;
        }
        catch (Exception e)
        {
            _loadError = Failures.Logged("Reading an instance", e);
        }
    }

    InstanceAssessment A => _detail!.Assessment;
}
