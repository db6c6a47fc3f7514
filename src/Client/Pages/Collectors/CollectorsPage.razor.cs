using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages.Collectors;

/// <summary>Collector liveness for administrators: each collector's last contact, outbox, instances and polls.</summary>
public partial class CollectorsPage
{
    [Inject] ICollectorsView Collectors { get; set; } = null!;

    IReadOnlyList<CollectorItem>? _items;

    protected override async Task OnInitializedAsync() => _items = await Collectors.ReadAsync(PageClosed);
}
