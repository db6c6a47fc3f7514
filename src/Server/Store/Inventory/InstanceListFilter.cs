namespace IfiDashboard.Server.Store.Inventory;

/// <summary>
/// One page of the instance list: instances with an id above <see cref="AfterId"/>, in id order, matching every
/// filter that is set. Environment, owner and tag match ignoring case; <see cref="Search"/> is a substring of the
/// name or host.
/// </summary>
public sealed record InstanceListFilter
{
    public string? Environment { get; init; }
    public string? Owner { get; init; }
    public string? Tag { get; init; }
    public string? Search { get; init; }
    public bool IncludeRetired { get; init; }
    public long AfterId { get; init; }
    public int Limit { get; init; } = 100;
}
