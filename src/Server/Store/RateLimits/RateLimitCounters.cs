using Dapper;

namespace IfiDashboard.Server.Store.RateLimits;

/// <summary>
/// The API's request counts per key in fixed windows, kept in the store so that every server on it counts a key's
/// requests together (table <c>api_rate_windows</c>, migration 0024). A key's window opens with its first request and
/// lasts the window's length; the first request after it opens the next.
/// </summary>
public sealed class RateLimitCounters(IDbConnectionFactory connections)
{
    long _prunedAtTicks;

    /// <summary>Counts one request of <paramref name="partition"/> at <paramref name="now"/>.</summary>
    /// <returns>The requests of the partition's current window, this one included, and when that window opened.</returns>
    public async Task<(long Requests, DateTimeOffset WindowStart)> CountAsync(string partition, DateTimeOffset now, TimeSpan window,
        CancellationToken ct)
    {
        // One statement, atomic on both providers (SET reads the row as it was); it needs no store-wide write lock, as
        // no other write reads these rows.
        const string sql = """
            INSERT INTO api_rate_windows (partition_key, window_start, requests) VALUES (@partition, @now, 1)
            ON CONFLICT (partition_key) DO UPDATE SET
                requests = CASE WHEN api_rate_windows.window_start <= @expired THEN 1 ELSE api_rate_windows.requests + 1 END,
                window_start = CASE WHEN api_rate_windows.window_start <= @expired THEN @now ELSE api_rate_windows.window_start END
            RETURNING requests AS Requests, window_start AS WindowStart;
            """;
        var expired = now - window;
        await using var connection = await connections.OpenAsync(ct);
        var row = await connection.QuerySingleAsync<WindowRow>(new CommandDefinition(sql, new { partition, now, expired }, cancellationToken: ct));
        // Once a window per server, partitions whose window has ended go (a key's next request starts a new one anyway).
        var pruned = Interlocked.Read(ref _prunedAtTicks);
        if (now.UtcTicks - pruned >= window.Ticks && Interlocked.CompareExchange(ref _prunedAtTicks, now.UtcTicks, pruned) == pruned)
            await connection.ExecuteAsync(new CommandDefinition("DELETE FROM api_rate_windows WHERE window_start <= @expired;",
                new { expired }, cancellationToken: ct));
        return (row.Requests, row.WindowStart);
    }

    sealed class WindowRow
    {
        public long Requests { get; init; }
        public DateTimeOffset WindowStart { get; init; }
    }
}
