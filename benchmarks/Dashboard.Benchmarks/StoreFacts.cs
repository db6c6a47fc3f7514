using Dapper;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>What a store holds, read directly: so a reused store is reported as it is, not as it was asked for.</summary>
internal sealed record StoreFacts(long Instances, long GrowthEvents, long Polls, long Files, long BusiestInstanceId, long BusiestEvents, long Bytes)
{
    public static async Task<StoreFacts> ReadAsync(BenchmarkStore store)
    {
        await using var connection = await store.OpenReadOnlyAsync();
        var instances = await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM instances WHERE retired_at IS NULL;");
        var events = await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM growth_events;", commandTimeout: 600);
        var polls = await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM polls;", commandTimeout: 600);
        var files = await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM database_files;", commandTimeout: 600);
        // The detail page is timed on the instance with the most history: its worst case.
        var busiest = await connection.QueryFirstOrDefaultAsync<(long Id, long Events)>(
            "SELECT instance_id, COUNT(*) FROM growth_events GROUP BY instance_id ORDER BY COUNT(*) DESC LIMIT 1;", commandTimeout: 600);
        var bytes = await store.BytesAsync(connection);
        return new StoreFacts(instances, events, polls, files, busiest.Id == 0 ? 1 : busiest.Id, busiest.Events, bytes);
    }
}
