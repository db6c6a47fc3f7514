using System.Data.Common;
using Dapper;
using Npgsql;

namespace IfiDashboard.Store;

/// <summary>
/// Every write transaction of the store begins here. SQLite has one writer at a time by nature (Microsoft.Data.Sqlite
/// begins with BEGIN IMMEDIATE). On PostgreSQL transaction-scoped advisory locks give the same guarantee to every
/// store-wide write, which keeps each read-then-write below (leases, CMDB sync, the change journal, alert episodes)
/// as safe as on SQLite and makes ids commit in the order they were drawn, which the changes feed's cursor relies on;
/// a snapshot, which writes one instance's rows, only excludes writes of that instance and store-wide writes, and
/// orders the feed's rows it writes itself (<see cref="TakeFeedOrderAsync"/>). Readers never wait for any of them.
/// </summary>
public static class WriteTransactions
{
    /// <summary>Any constant will do, as long as every writer of one store uses the same one.</summary>
    internal const long StoreWriteLockKey = 0x1F1_DA5B;

    /// <summary>Taken before rows a cursor reads by id are written inside an instance's write (<c>ifi_changes</c>).</summary>
    internal const long FeedOrderLockKey = 0x1F1_DA5C;

    /// <summary>The class of the per-instance locks (two-integer advisory keys, a key space apart from the one above).</summary>
    internal const int InstanceLockClass = 0x1F1;

    /// <summary>A store-wide write: waits for every other writer, and they for it.</summary>
    public static Task<DbTransaction> BeginWriteAsync(this DbConnection connection, CancellationToken cancellationToken) =>
        BeginAsync(connection, "SELECT pg_advisory_xact_lock(@key);", new { key = StoreWriteLockKey }, cancellationToken);

    /// <summary>
    /// A write of one instance's rows only (a snapshot): on PostgreSQL it shares the store's lock with the other
    /// instances' writes and excludes only writes of the same instance, so several collectors and servers ingest in
    /// parallel, while a store-wide write still waits for all of them and they for it. On SQLite, the one writer.
    /// </summary>
    public static Task<DbTransaction> BeginInstanceWriteAsync(this DbConnection connection, long instanceId, CancellationToken cancellationToken) =>
        // One statement (the store's lock first: a target list is evaluated in order), since every snapshot and every
        // lease completion begins here.
        BeginAsync(connection, "SELECT pg_advisory_xact_lock_shared(@key), pg_advisory_xact_lock(@instanceClass, @instance);",
            new { key = StoreWriteLockKey, instanceClass = InstanceLockClass, instance = unchecked((int)instanceId) }, cancellationToken);

    /// <summary>
    /// Inside an instance's write, before inserting rows that a cursor reads by id: instance writes run in parallel,
    /// so without it a row could commit after one with a higher id that a reader had already passed. Held until the
    /// commit, it makes those ids commit in the order they are drawn. Nothing to do on SQLite (one writer).
    /// </summary>
    public static async Task TakeFeedOrderAsync(this DbConnection connection, DbTransaction tx, CancellationToken cancellationToken)
    {
        if (connection is NpgsqlConnection)
            await connection.ExecuteAsync(new CommandDefinition(
                "SELECT pg_advisory_xact_lock(@key);", new { key = FeedOrderLockKey }, tx, cancellationToken: cancellationToken));
    }

    static async Task<DbTransaction> BeginAsync(DbConnection connection, string locks, object keys, CancellationToken cancellationToken)
    {
        var tx = await connection.BeginTransactionAsync(cancellationToken);
        if (connection is NpgsqlConnection)
        {
            try
            {
                // Bounded by the session's lock_timeout (PostgresConnectionFactory): a writer stuck behind another
                // gives up with 55P03 (StoreBusy), which the API answers 503 and the embedded collector retries.
                await connection.ExecuteAsync(new CommandDefinition(locks, keys, tx, cancellationToken: cancellationToken));
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
