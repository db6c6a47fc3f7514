namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>The retire confirmation's one field: which instance.</summary>
public sealed class RetireRequest
{
    public long? Id { get; set; }
}
