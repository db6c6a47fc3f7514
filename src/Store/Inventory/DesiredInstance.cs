using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Store.Inventory;

/// <summary>An instance as the CMDB wants it, under the CMDB's own key.</summary>
public sealed record DesiredInstance(string ExternalKey, InstanceRegistration Registration);
