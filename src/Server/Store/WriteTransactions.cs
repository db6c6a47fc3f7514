using System.Data.Common;
using Dapper;
using Npgsql;

namespace IfiDashboard.Server.Store;

/// <summary>
/// Every write transaction of the store begins here, so both providers give the same guarantee: one writer at a
/// time. SQLite has it by nature (Microsoft.Data.Sqlite begins with BEGIN IMMEDIATE). On PostgreSQL a transaction-
/// scoped advisory lock gives it, which keeps every read-then-write below (leases, CMDB sync, the change journal,
/// alert episodes) as safe as on SQLite, and makes ids commit in the order they were drawn, which the changes
/// feed's cursor relies on. Readers never wait for it.
/// </summary>
public static class WriteTransactions
{
    /// <summary>Any constant will do, as long as every writer of one store uses the same one.</summary>
    internal const long StoreWriteLockKey = 0x1F1_DA5B;

    public static async Task<DbTransaction> BeginWriteAsync(this DbConnection connection, CancellationToken cancellationToken)
    {
        var tx = await connection.BeginTransactionAsync(cancellationToken);
        if (connection is NpgsqlConnection)
        {
            try
            {
                // Bounded by the session's lock_timeout (PostgresConnectionFactory): a writer stuck behind another
                // gives up with 55P03 (StoreBusy), which the API answers 503 and the embedded collector retries.
                await connection.ExecuteAsync(new CommandDefinition(
                    "SELECT pg_advisory_xact_lock(@key);", new { key = StoreWriteLockKey }, tx, cancellationToken: cancellationToken));
            }
            catch
            {
                await tx.DisposeAsync();
                throw;
            }
        }
        return tx;
    }
}
