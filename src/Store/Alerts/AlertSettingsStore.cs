using Dapper;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Store.Alerts;

/// <summary>
/// The alert settings an Administrator changed in the dashboard (<c>alert_settings</c>), by configuration key; each
/// overrides the configuration's value (<see cref="IfiDashboard.Server.Alerts.AlertOptions.WithOverrides"/>). A save
/// is audited in its own transaction, with the values before and after.
/// </summary>
public sealed class AlertSettingsStore(IDbConnectionFactory connections, TimeProvider time, AuditLog audit)
{
    public async Task<StoredAlertSettings> GetAsync(CancellationToken ct)
    {
        await using var connection = await connections.OpenAsync(ct);
        var rows = (await connection.QueryAsync<(string Name, string Value, string ChangedBy, DateTimeOffset ChangedAt)>(new CommandDefinition(
            "SELECT name, value, changed_by, changed_at FROM alert_settings ORDER BY changed_at DESC, name;", cancellationToken: ct))).ToList();
        return new StoredAlertSettings(rows.ToDictionary(r => r.Name, r => r.Value, StringComparer.Ordinal),
            rows.Count == 0 ? null : rows[0].ChangedBy, rows.Count == 0 ? null : rows[0].ChangedAt);
    }

    public async Task SaveAsync(IReadOnlyDictionary<string, string> values, string changedBy, CancellationToken ct)
    {
        const string upsert = """
            INSERT INTO alert_settings (name, value, changed_by, changed_at) VALUES (@name, @value, @changedBy, @now)
            ON CONFLICT (name) DO UPDATE SET value = excluded.value, changed_by = excluded.changed_by, changed_at = excluded.changed_at;
            """;
        var now = time.GetUtcNow();
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var before = (await connection.QueryAsync<(string Name, string Value)>(new CommandDefinition(
            "SELECT name, value FROM alert_settings ORDER BY name;", transaction: tx, cancellationToken: ct))).ToDictionary(r => r.Name, r => r.Value);
        foreach (var (name, value) in values)
            await connection.ExecuteAsync(new CommandDefinition(upsert, new { name, value, changedBy, now }, tx, cancellationToken: ct));
        await audit.AppendAsync(connection, tx, AuditActions.AlertSettingsSaved, "alert settings", before.Count == 0 ? null : before,
            new SortedDictionary<string, string>(values.ToDictionary(), StringComparer.Ordinal), ct);
        await tx.CommitAsync(ct);
    }
}

/// <summary>The stored overrides, with who changed them last and when (null when none is stored).</summary>
public sealed record StoredAlertSettings(IReadOnlyDictionary<string, string> Values, string? ChangedBy, DateTimeOffset? ChangedAt);
