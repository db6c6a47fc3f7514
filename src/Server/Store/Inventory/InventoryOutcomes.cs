namespace IfiDashboard.Server.Store.Inventory;

public enum UpsertResult
{
    Created,
    Updated,
    Unchanged,
    /// <summary>The caller's condition on the current state (If-Match) did not hold; nothing was written.</summary>
    PreconditionFailed,
    /// <summary>Another active instance already has the name; nothing was written.</summary>
    NameConflict,
    /// <summary>Another active instance already reaches the same server; nothing was written.</summary>
    ServerConflict,
}

/// <summary>What an upsert did, and the instance as it is now (as it was, when nothing was written).</summary>
/// <param name="RegisteredAs">For <see cref="UpsertResult.ServerConflict"/>: the instance that reaches the server.</param>
public sealed record UpsertOutcome(UpsertResult Result, InventoryRecord? Record, string? RegisteredAs = null);

/// <summary>
/// External keys by what a sync did (or, on a dry run, would do) to them. When <see cref="NameConflicts"/> is not
/// empty nothing was written: it lists the positions of desired instances whose name an instance outside the sync
/// keeps; likewise <see cref="ServerConflicts"/>, desired instances that reach a server another instance reaches once
/// the sync is applied, with that instance's name.
/// </summary>
public sealed record SyncOutcome(
    IReadOnlyList<string> Created,
    IReadOnlyList<string> Updated,
    IReadOnlyList<string> Retired,
    IReadOnlyList<string> Unchanged,
    IReadOnlyList<int> NameConflicts,
    IReadOnlyList<(int Index, string RegisteredAs)> ServerConflicts);
