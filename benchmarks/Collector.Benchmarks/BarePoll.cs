using Dapper;
using IfiDashboard.Collector.Probes;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// One poll the plain way: open, then the collector's embedded scripts in the collector's order with the same
/// parameters, rows read by Dapper as dynamic rows. It keeps only what picks the next query (version, engine
/// edition, IFI column, trace path, newest event), with no classification and no snapshot.
/// </summary>
/// <param name="anonymousParameters">
/// Pass parameters as anonymous objects, the usual Dapper idiom. Dapper then emits and JIT-compiles a parameter
/// writer per connection string, i.e. per instance; the collector uses DynamicParameters instead, and so does this
/// loop unless asked, so the comparison is of the collector's own work.
/// </param>
internal sealed class BarePoll(int commandTimeoutSeconds, bool anonymousParameters)
{
    static readonly TimeSpan BackupWindow = TimeSpan.FromDays(35);

    /// <returns>When the last query answered, for a latency that ends where the collector's snapshot ends.</returns>
    /// <param name="openOnly">Connect, TLS handshake and login only: what is left of a poll's cost is its queries.</param>
    public async Task<long> RunAsync(string connectionString, BareWatermarks watermarks, long instanceId, bool openOnly, CancellationToken token)
    {
        await using var connection = new SqlConnection(connectionString);
        try
        {
            await connection.OpenAsync(token);
            if (!openOnly) await QueriesAsync(connection, watermarks, instanceId, token);
            return System.Diagnostics.Stopwatch.GetTimestamp();
        }
        finally
        {
            // As the collector does: without it the next poll of this instance would reuse the pooled session and
            // skip the connect and TLS handshake the collector pays every time.
            SqlConnection.ClearPool(connection);
        }
    }

    async Task QueriesAsync(SqlConnection connection, BareWatermarks watermarks, long instanceId, CancellationToken token)
    {
        var identity = (IDictionary<string, object?>)await connection.QuerySingleAsync(Command(SqlScripts.Identity, null, token));
        var major = int.Parse(((string)identity["ProductVersion"]!).Split('.')[0], System.Globalization.CultureInfo.InvariantCulture);
        var azure = identity["EngineEdition"] is 5;
        if (major >= 14) await connection.QuerySingleAsync(Command(SqlScripts.HostInfo, null, token));

        if (!azure)
        {
            var hasIfiColumn = await connection.ExecuteScalarAsync<int>(Command(SqlScripts.ServicesIfiColumn, null, token)) > 0;
            await connection.QueryAsync(Command(hasIfiColumn ? SqlScripts.Services : SqlScripts.ServicesLegacy, null, token));
            // The collector's second IFI source, read only where the services DMV has no IFI column.
            if (!hasIfiColumn) await connection.QueryAsync(Command(SqlScripts.ErrorLogIfi, null, token));
        }
        await connection.ExecuteScalarAsync<DateTimeOffset>(Command(SqlScripts.Clock, null, token));
        if (azure) return;

        await connection.QueryAsync(Command(SqlScripts.Files, null, token));
        await connection.QueryAsync(Command(SqlScripts.Encryption, null, token));
        var path = await connection.QueryFirstOrDefaultAsync<string>(Command(SqlScripts.DefaultTrace, null, token));
        if (path is not null)
        {
            var separator = path.LastIndexOfAny(['\\', '/']);
            var basePath = separator < 0 ? "log.trc" : path[..(separator + 1)] + "log.trc";
            var since = watermarks.Since(instanceId);
            var rows = await connection.QueryAsync(Command(SqlScripts.GrowthEvents,
                anonymousParameters ? new { path = basePath, since } : Parameters(("path", basePath), ("since", since)), token));
            DateTime? newest = null;
            foreach (IDictionary<string, object?> row in rows)
                if (row["StartTime"] is DateTime start && (newest is null || start > newest)) newest = start;
            if (newest is { } n) watermarks.Advance(instanceId, n);
        }
        var backupsSince = DateTime.UtcNow - BackupWindow;
        await connection.QueryAsync(Command(SqlScripts.Backups,
            anonymousParameters ? new { since = backupsSince } : Parameters(("since", backupsSince)), token));
    }

    static DynamicParameters Parameters(params ReadOnlySpan<(string Name, object Value)> values)
    {
        var parameters = new DynamicParameters();
        foreach (var (name, value) in values) parameters.Add(name, value);
        return parameters;
    }

    CommandDefinition Command(string script, object? parameters, CancellationToken token) =>
        new(SqlScripts.Get(script), parameters, commandTimeout: commandTimeoutSeconds, cancellationToken: token);
}
