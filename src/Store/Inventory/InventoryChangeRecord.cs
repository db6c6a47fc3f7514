using System.Data.Common;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Changes;

namespace IfiDashboard.Store.Inventory;

/// <summary>
/// What every change to an instance leaves behind, in the transaction that makes it: the audit entry (who, before and
/// after) and the changes feed's journal entry (what, at which version). One call per write, from the form's, the
/// API's, the sync's and the demo's paths alike.
/// </summary>
internal static class InventoryChangeRecord
{
    public static async Task AppendAsync(DbConnection connection, DbTransaction tx, AuditLog audit, string action, long instanceId,
        string target, object? before, object? after, DateTimeOffset at, CancellationToken ct)
    {
        await audit.AppendAsync(connection, tx, action, target, before, after, ct);
        await ChangeJournal.AppendInventoryAsync(connection, tx, instanceId, action switch
        {
            AuditActions.InstanceRegistered => InventoryChanges.Created,
            AuditActions.InstanceRetired => InventoryChanges.Retired,
            AuditActions.InstanceUpdated => InventoryChanges.Updated,
            _ => throw new ArgumentOutOfRangeException(nameof(action), action, "Not an inventory change."),
        }, at, ct);
    }

    /// <summary>What <see cref="AppendAsync"/> leaves for each of many instances registered at once (an import, ids
    /// <paramref name="firstId"/> to <paramref name="lastId"/> drawn under the write lock), a few statements for all.</summary>
    public static async Task AppendCreatedAsync(DbConnection connection, DbTransaction tx, AuditLog audit,
        IReadOnlyList<(string Target, object? After)> created, long firstId, long lastId, DateTimeOffset at, CancellationToken ct)
    {
        await audit.AppendManyAsync(connection, tx, AuditActions.InstanceRegistered, created.Select(c => ((string?)c.Target, (object?)null, c.After)).ToList(), ct);
        await ChangeJournal.AppendInventoryManyAsync(connection, tx, firstId, lastId, InventoryChanges.Created, at, ct);
    }
}
