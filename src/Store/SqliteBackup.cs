using System.Data.Common;
using Dapper;

namespace IfiDashboard.Store;

/// <summary>
/// A consistent copy of the SQLite store, safe while servers run on it. A plain copy of the file misses what the
/// write-ahead log still holds; <c>VACUUM INTO</c> reads the database as one transaction sees it, log included, and
/// writes a compact file that is itself a whole store.
/// </summary>
public static class SqliteBackup
{
    /// <summary>Writes the copy to <paramref name="target"/>, which must not exist; a failure is SQLite's own exception.</summary>
    public static Task WriteCopyAsync(this DbConnection connection, string target, CancellationToken cancellationToken) =>
        connection.ExecuteAsync(new CommandDefinition("VACUUM INTO @target;", new { target }, cancellationToken: cancellationToken));
}
