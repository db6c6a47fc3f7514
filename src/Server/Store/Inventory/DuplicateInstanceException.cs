namespace IfiDashboard.Server.Store.Inventory;

/// <summary>An active instance with this name (compared ignoring case) is already registered.</summary>
public sealed class DuplicateInstanceException(string name, Exception? innerException = null)
    : Exception($"An instance named '{name}' is already registered.", innerException)
{
    public string InstanceName { get; } = name;
}
