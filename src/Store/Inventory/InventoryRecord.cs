using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Store.Inventory;

/// <summary>
/// A registered instance as the REST API shows it: the registration plus the CMDB's key (null when registered
/// another way), when it was created and last changed, and the version its ETag is made from; where duplicates are
/// looked for, also the server's name for itself once polled.
/// </summary>
public sealed record InventoryRecord(
    InstanceRegistration Registration,
    string? ExternalKey,
    DateTimeOffset CreatedAt,
    DateTimeOffset UpdatedAt,
    long Version,
    string? PolledServerName = null);
