using IfiDashboard.Shared.Dashboard;
using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages;

/// <summary>Every registered instance with its IFI state. Kept current by live-refresh.js as polls land.</summary>
public partial class InstancesPage
{
    [Inject] IFleetReader Fleet { get; set; } = null!;

    IReadOnlyList<InstanceListRow>? _rows;
    FleetCounts? _counts;
    string? _loadError;

    protected override async Task OnInitializedAsync()
    {
        try
        {
            _rows = await Fleet.ListInstancesAsync(CancellationToken.None);
            _counts = await Fleet.CountsAsync(CancellationToken.None);
        }
        catch (Exception e)
        {
            // The page still renders and says what is wrong; the store's health is on /readyz.
            _loadError = e.Message;
        }
    }
}
