namespace IfiDashboard.Server.Store.Inventory;

/// <summary>
/// An active instance already reaches this server (<see cref="InventoryFields.ServerKey"/>): registering it twice
/// would count it twice in every fleet figure.
/// </summary>
public sealed class DuplicateServerException(string registeredAs, string address)
    : Exception($"{registeredAs} already polls {address}: one server is registered once (edit {registeredAs} instead).")
{
    /// <summary>The name of the active instance that reaches the server already.</summary>
    public string RegisteredAs { get; } = registeredAs;
}
