namespace IfiDashboard.Store.Inventory;

/// <summary>
/// One page of the instance list: instances after <see cref="After"/> in <see cref="Sort"/> order, matching every
/// filter that is set. Environment, owner and tag match ignoring case; <see cref="Search"/> is a substring of the
/// name or host; <see cref="UpdatedSince"/> keeps instances changed (or registered) at or after it.
/// </summary>
public sealed record InstanceListFilter
{
    public string? Environment { get; init; }
    public string? Owner { get; init; }
    public string? Tag { get; init; }
    public string? Search { get; init; }
    public bool IncludeRetired { get; init; }
    public DateTimeOffset? UpdatedSince { get; init; }
    public InstanceListSort Sort { get; init; } = InstanceListSort.Id;
    /// <summary>The last row of the previous page (its sort key and id), or null for the first page.</summary>
    public InstanceListPosition? After { get; init; }
    public int Limit { get; init; } = 100;
}

/// <summary>The orders the list pages in; each ends with the id, so every position is unique.</summary>
public enum InstanceListSort
{
    Id,
    /// <summary>By name ignoring case.</summary>
    Name,
    /// <summary>By the last change (registration, update, retirement), oldest first.</summary>
    UpdatedAt,
}

/// <summary>Where a page ended: the sort key of its last row (null for <see cref="InstanceListSort.Id"/>) and its id.</summary>
public sealed record InstanceListPosition(long Id, string? Name = null, DateTimeOffset? UpdatedAt = null);
