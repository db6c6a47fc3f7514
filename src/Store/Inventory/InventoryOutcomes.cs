using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Store.Inventory;

public enum InventoryWriteResult
{
    Created,
    Updated,
    Unchanged,
    Retired,
    /// <summary>No active instance has the id or key; nothing was written.</summary>
    NotFound,
    /// <summary>The caller's condition on the current state (If-Match) did not hold; nothing was written.</summary>
    PreconditionFailed,
    /// <summary>See <see cref="InventoryWrite.Refusal"/>; nothing was written.</summary>
    Refused,
}

/// <summary>What a write did, and the instance as it is now (as it was, when nothing was written).</summary>
public sealed record InventoryWrite(InventoryWriteResult Result, InventoryRecord? Record, InventoryRefusal? Refusal = null)
{
    public bool Changed => Result is InventoryWriteResult.Created or InventoryWriteResult.Updated or InventoryWriteResult.Retired;

    public static InventoryWrite Refused(InventoryRefusal refusal) => new(InventoryWriteResult.Refused, null, refusal);
}

public enum InventoryRefusalKind
{
    /// <summary>A field breaks <see cref="InstanceRules"/>.</summary>
    Invalid,
    /// <summary>Another active instance has the name (ignoring case).</summary>
    NameTaken,
    /// <summary>Another active instance reaches the same server (<see cref="InventoryFields.SameServer"/>).</summary>
    ServerTaken,
}

/// <summary>
/// Why a registration was not stored, field by field, in the words every path shows (the form beside the field, the
/// API as problem details); for a conflict, the registration that holds the name or the server.
/// </summary>
public sealed record InventoryRefusal(InventoryRefusalKind Kind, IReadOnlyList<InstanceFieldError> Errors, InstanceRegistration? Existing = null)
{
    /// <summary>The dashboard's page of the registration in the way, when it is stored already.</summary>
    public string? ExistingLink => Existing is { Id: > 0 } existing ? $"/instances/{existing.Id}" : null;

    public static InventoryRefusal NameTaken(string name, InstanceRegistration existing) => new(InventoryRefusalKind.NameTaken,
        [new("name", $"Another active instance is already named '{name}' (names compare ignoring case).")], existing);

    /// <summary>Registering one server twice would count it twice in every fleet figure.</summary>
    public static InventoryRefusal ServerTaken(InstanceRegistration registration, InstanceRegistration existing) => new(InventoryRefusalKind.ServerTaken,
        [new("host", $"{existing.Name} already polls {InventoryFields.ServerAddress(registration)}: one server is registered once (edit {existing.Name} instead).")],
        existing);
}

/// <summary>
/// External keys by what a sync did (or, on a dry run, would do) to them. When <see cref="Refusals"/> is not empty
/// nothing was written: it lists the positions of desired instances that break a rule, take a name an instance
/// outside the sync keeps, or reach a server another instance reaches once the sync is applied.
/// </summary>
public sealed record SyncOutcome(
    IReadOnlyList<string> Created,
    IReadOnlyList<string> Updated,
    IReadOnlyList<string> Retired,
    IReadOnlyList<string> Unchanged,
    IReadOnlyList<(int Index, InventoryRefusal Refusal)> Refusals)
{
    public static SyncOutcome Refused(IReadOnlyList<(int Index, InventoryRefusal Refusal)> refusals) => new([], [], [], [], refusals);
}
