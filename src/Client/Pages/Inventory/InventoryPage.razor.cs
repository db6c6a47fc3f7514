using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Inventory;
using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>
/// The registered instances with Edit and Retire. Retiring asks first: the Retire link opens a confirmation
/// (<c>?retire=id</c>, a safe GET) whose form does the retiring, so no script and no accidental click retires anything.
/// </summary>
public partial class InventoryPage
{
    [Inject] IInventoryEditor Inventory { get; set; } = null!;
    [Inject] IFleetAssessments Assessments { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;

    [SupplyParameterFromQuery(Name = "retire")] public string? RetireText { get; set; }
    long? RetireId => QueryNumber.Id(RetireText);
    [SupplyParameterFromQuery(Name = "done")] public string? Done { get; set; }
    /// <summary>
    /// The instance the change was about (<c>?id=</c>), or how many an import registered (<c>?count=</c>): text, so
    /// that a mangled link shows no name rather than fails.
    /// </summary>
    [SupplyParameterFromQuery(Name = "id")] public string? ChangedId { get; set; }
    [SupplyParameterFromQuery(Name = "count")] public string? ImportedCount { get; set; }
    [SupplyParameterFromQuery(Name = "page")] public string? PageText { get; set; }

    /// <summary>A page of registrations: at 2,000 instances the whole list was a 1.6 MB page.</summary>
    public const int PageSize = 50;

    [SupplyParameterFromForm(FormName = "retire")] public RetireRequest? Retire { get; set; }

    IReadOnlyList<InstanceRegistration>? _instances;
    /// <summary>Registrations that reach the same server as an earlier one, which is the one the figures count.</summary>
    IReadOnlyDictionary<long, InstanceRegistration> _duplicateOf = new Dictionary<long, InstanceRegistration>();
    InstanceRegistration? _confirm;
    IReadOnlyList<InstanceRegistration> _shown = [];
    int _page = 1, _pages = 1;
    string? _loadError;
    string? _message;
    bool _failed;

    protected override async Task OnInitializedAsync()
    {
        try
        {
            _instances = (await Inventory.ListAsync(PageClosed))
                .OrderBy(i => i.Name, StringComparer.OrdinalIgnoreCase).ToList();
            // A retired instance is no longer in the list: its name is read by its id.
            var changed = QueryNumber.Id(ChangedId) is not { } changedId ? null
                : _instances.FirstOrDefault(i => i.Id == changedId) ?? await Inventory.GetAsync(changedId, PageClosed);
            _message = InventoryMessages.For(Done, changed?.Name,
                QueryNumber.Count(ImportedCount));
            _duplicateOf = (await Assessments.GetAsync(PageClosed)).DuplicateOf;
            _pages = Math.Max(1, (_instances.Count + PageSize - 1) / PageSize);
            _page = Math.Clamp(QueryNumber.Count(PageText) ?? 1, 1, _pages);
            _shown = _instances.Skip((_page - 1) * PageSize).Take(PageSize).ToList();
            _confirm = _instances.FirstOrDefault(i => i.Id == RetireId);
            if (RetireId is { } id && _confirm is null)
                Fail($"No active instance has id {id}: it may already be retired.");
        }
        catch (Exception e)
        {
            _loadError = Failures.Logged("Reading the inventory", e);
        }
    }

    async Task RetireAsync()
    {
        var target = _instances?.FirstOrDefault(i => i.Id == Retire?.Id);
        if (target is null)
        {
            Fail("Nothing was retired: that instance is not in the active inventory any more.");
            return;
        }
        try
        {
            await Inventory.RetireAsync(target.Id, CancellationToken.None);
        }
        catch (Exception e)
        {
            Fail($"{target.Name} could not be retired: {Failures.Logged("Retiring a registration", e)}");
            return;
        }
        Navigation.NavigateTo(InventoryMessages.Retired(target.Id));
    }

    void Fail(string message)
    {
        _message = message;
        _failed = true;
    }
}
