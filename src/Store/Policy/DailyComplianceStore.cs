using Dapper;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;

namespace IfiDashboard.Store.Policy;

/// <summary>Each instance's worst status per UTC day, for the compliance trend chart.</summary>
public sealed class DailyComplianceStore(IDbConnectionFactory connections)
{
    public async Task RecordAsync(DateOnly day, IEnumerable<(long InstanceId, ComplianceStatus Status)> statuses, CancellationToken ct)
    {
        const string read = "SELECT instance_id AS InstanceId, status AS Status FROM daily_compliance WHERE day = @day;";
        const string upsert = """
            INSERT INTO daily_compliance (day, instance_id, status) VALUES (@day, @instanceId, @status)
            ON CONFLICT (day, instance_id) DO UPDATE SET status = excluded.status;
            """;
        var dayText = day.ToString("yyyy-MM-dd");
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var recorded = (await connection.QueryAsync<(long InstanceId, string Status)>(new CommandDefinition(read, new { day = dayText }, tx, cancellationToken: ct)))
            .ToDictionary(r => r.InstanceId, r => Enum.Parse<ComplianceStatus>(r.Status));
        // The day keeps the worst status seen: a morning outage is not erased by an afternoon fix.
        var changed = statuses
            .Where(s => !recorded.TryGetValue(s.InstanceId, out var before)
                        || DailyComplianceSeries.Badness(s.Status) > DailyComplianceSeries.Badness(before))
            .Select(s => new { day = dayText, instanceId = s.InstanceId, status = s.Status.ToString() })
            .ToList();
        if (changed.Count > 0)
            await connection.ExecuteAsync(new CommandDefinition(upsert, changed, tx, cancellationToken: ct));
        await tx.CommitAsync(ct);
    }

    public async Task<IReadOnlyList<DailyStatus>> ReadAsync(DateOnly from, CancellationToken ct)
    {
        const string sql = "SELECT day AS Day, instance_id AS InstanceId, status AS Status FROM daily_compliance WHERE day >= @from;";
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<(string Day, long InstanceId, string Status)>(
            new CommandDefinition(sql, new { from = from.ToString("yyyy-MM-dd") }, cancellationToken: ct));
        return rows.Select(r => new DailyStatus(DateOnly.Parse(r.Day), r.InstanceId, Enum.Parse<ComplianceStatus>(r.Status))).ToList();
    }
}
