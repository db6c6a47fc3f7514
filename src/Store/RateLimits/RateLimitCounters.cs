using System.Collections.Concurrent;
using Dapper;

namespace IfiDashboard.Store.RateLimits;

/// <summary>
/// The API's request counts per key in fixed windows. A key's window opens with its first request and lasts the
/// window's length; the first request after it opens the next. On PostgreSQL the counts are in the store (table
/// <c>api_rate_windows</c>, migration 0024), so the servers sharing it count a key's requests together. A SQLite store
/// has one server (docs/deployment.md), which counts in memory: a store write for every API read would make each read
/// wait for SQLite's one writer.
/// </summary>
public sealed class RateLimitCounters(IDbConnectionFactory connections)
{
    readonly ConcurrentDictionary<string, Window> _inProcess = new(StringComparer.Ordinal);
    long _prunedAtTicks;

    /// <summary>Counts one request of <paramref name="partition"/> at <paramref name="now"/>.</summary>
    /// <returns>The requests of the partition's current window, this one included, and when that window opened.</returns>
    public async Task<(long Requests, DateTimeOffset WindowStart)> CountAsync(string partition, DateTimeOffset now, TimeSpan window,
        CancellationToken ct)
    {
        var expired = now - window;
        var prune = PruneDue(now, window);
        if (!connections.Dialect.IsPostgres)
        {
            var counted = _inProcess.AddOrUpdate(partition, _ => new Window(1, now),
                (_, current) => current.Start <= expired ? new Window(1, now) : current with { Requests = current.Requests + 1 });
            if (prune)
                foreach (var (key, ended) in _inProcess.Where(p => p.Value.Start <= expired))
                    _inProcess.TryRemove(new KeyValuePair<string, Window>(key, ended));
            return (counted.Requests, counted.Start);
        }

        // One statement, atomic (SET reads the row as it was); it takes no store-wide write lock, as no other write
        // reads these rows. The same rule as in memory above.
        const string sql = """
            INSERT INTO api_rate_windows (partition_key, window_start, requests) VALUES (@partition, @now, 1)
            ON CONFLICT (partition_key) DO UPDATE SET
                requests = CASE WHEN api_rate_windows.window_start <= @expired THEN 1 ELSE api_rate_windows.requests + 1 END,
                window_start = CASE WHEN api_rate_windows.window_start <= @expired THEN @now ELSE api_rate_windows.window_start END
            RETURNING requests AS Requests, window_start AS Start;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var row = await connection.QuerySingleAsync<WindowRow>(new CommandDefinition(sql, new { partition, now, expired }, cancellationToken: ct));
        if (prune)
            await connection.ExecuteAsync(new CommandDefinition("DELETE FROM api_rate_windows WHERE window_start <= @expired;",
                new { expired }, cancellationToken: ct));
        return (row.Requests, row.Start);
    }

    // Once a window per server, the partitions whose window has ended go: a key's next request opens a new one anyway.
    bool PruneDue(DateTimeOffset now, TimeSpan window)
    {
        var pruned = Interlocked.Read(ref _prunedAtTicks);
        return now.UtcTicks - pruned >= window.Ticks && Interlocked.CompareExchange(ref _prunedAtTicks, now.UtcTicks, pruned) == pruned;
    }

    sealed record Window(long Requests, DateTimeOffset Start);

    sealed class WindowRow
    {
        public long Requests { get; init; }
        public DateTimeOffset Start { get; init; }
    }
}
