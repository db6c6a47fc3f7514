using System.Data;
using System.Data.Common;
using Dapper;
using Microsoft.Data.Sqlite;

namespace IfiDashboard.Store;

/// <summary>
/// A read-only transaction over one consistent view of the store, for a reader whose queries must agree with each
/// other (a report's sections) without holding up the writers.
/// </summary>
public static class ReadSnapshot
{
    public static async Task<DbTransaction> BeginReadSnapshotAsync(this DbConnection connection, CancellationToken ct)
    {
        if (connection is SqliteConnection sqlite)
            // Microsoft.Data.Sqlite begins IMMEDIATE by default, which takes the store's one write lock for the whole
            // read. A deferred transaction takes none; in WAL mode its first read fixes the view it sees.
            return sqlite.BeginTransaction(deferred: true);
        // PostgreSQL's default READ COMMITTED gives each statement its own snapshot; REPEATABLE READ keeps the first
        // statement's snapshot for the whole transaction, and READ ONLY states that nothing is written.
        var transaction = await connection.BeginTransactionAsync(IsolationLevel.RepeatableRead, ct);
        await connection.ExecuteAsync(new CommandDefinition("SET TRANSACTION READ ONLY;", transaction: transaction, cancellationToken: ct));
        return transaction;
    }
}
