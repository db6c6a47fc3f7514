namespace IfiDashboard.Store.Changes;

/// <summary>The journal's kinds, as stored in <c>change_journal.kind</c>.</summary>
public static class JournalKinds
{
    public const string Status = "status";
    public const string Inventory = "inventory";
}

/// <summary>The inventory changes the journal records, as stored in <c>change_journal.change</c>.</summary>
public static class InventoryChanges
{
    public const string Created = "created";
    public const string Updated = "updated";
    public const string Retired = "retired";
}

/// <summary>One instance's compliance status in an assessment, as the journal compares it.</summary>
public sealed record StatusObservation(long InstanceId, string Status, string Explanation);

/// <summary>A <c>change_journal</c> row joined with its instance's name and CMDB key.</summary>
public sealed class JournalRow
{
    public long Id { get; init; }
    public string Kind { get; init; } = "";
    public long InstanceId { get; init; }
    public string Change { get; init; } = "";
    public DateTimeOffset OccurredAt { get; init; }
    public string? OldValue { get; init; }
    public string? NewValue { get; init; }
    public long? Version { get; init; }
    public string? Detail { get; init; }
    public string InstanceName { get; init; } = "";
    public string? ExternalKey { get; init; }
}

/// <summary>An <c>ifi_changes</c> row (the IFI timeline) joined with its instance's name and CMDB key.</summary>
public sealed class TimelineRow
{
    public long Id { get; init; }
    public long InstanceId { get; init; }
    public string Field { get; init; } = "";
    public DateTimeOffset ChangedAt { get; init; }
    public string? OldValue { get; init; }
    public string? NewValue { get; init; }
    public string InstanceName { get; init; } = "";
    public string? ExternalKey { get; init; }
    /// <summary>Why the poll that saw the change disagrees with the instance's history; null when it agrees.</summary>
    public string? Doubt { get; init; }
}
