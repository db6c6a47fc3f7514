using System.Data.Common;
using Dapper;

namespace IfiDashboard.Store;

/// <summary>The readiness check's write (<c>/readyz</c>): whether the store takes a write now, leaving it as it was.</summary>
public static class StoreWriteCheck
{
    /// <summary>
    /// Rewrites the migration journal's rows unchanged under the store's write lock, then rolls back: fails on a
    /// read-only file, a full disk or a read-only PostgreSQL session, and leaves the store as it was.
    /// </summary>
    public static async Task WriteAndRollBackAsync(this DbConnection connection, CancellationToken cancellationToken)
    {
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(
            "UPDATE schema_versions SET applied_at = applied_at;", transaction: tx, cancellationToken: cancellationToken));
        await tx.RollbackAsync(cancellationToken);
    }
}
