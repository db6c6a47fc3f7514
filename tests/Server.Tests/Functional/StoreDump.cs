using System.Text;
using Dapper;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Retention;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>Every text value in every table of the store, for "this secret is nowhere" assertions.</summary>
internal static class StoreDump
{
    /// <summary>The table a refusal may write to (its audit entry) while it changes nothing else; leaving it out
    /// leaves out the refusal counts too (<see cref="RefusalCounts"/>), where most refusals are audited.</summary>
    public const string AuditLog = "audit_log";

    const string RefusalCounts = "refusal_counts";

    /// <summary>
    /// The retention pass's claim (one row), taken and let go by the server's own background pass on its own clock:
    /// a dump caught while that pass runs would show its holder, which no request writes (a CI run failed on that).
    /// </summary>
    const string RetentionLease = "retention_lease";

    /// <summary>
    /// Each key's requests in its rate-limit window: every API request counts, a refused one too, as the limit must;
    /// it holds a key's id and a count, never a key.
    /// </summary>
    const string ApiRateWindows = "api_rate_windows";

    /// <param name="except">Tables left out, e.g. <see cref="AuditLog"/> when comparing before and after a refusal.</param>
    public static async Task<string> AllTextAsync(IServiceProvider services, params string[] except)
    {
        // Every stored change (a registration, a snapshot) wakes the background assessment, which records the day's
        // statuses and the changes journal a second later: run it now, so that a dump taken before a request and one
        // taken after differ only by what the request did. The background run that follows finds nothing new to write.
        if (services.GetService<FleetAssessments>() is { } assessments)
        {
            await assessments.RecomputeAsync(CancellationToken.None);
            await services.GetRequiredService<ChangeRecorder>().CatchUpAsync(CancellationToken.None);
        }
        var connections = services.GetRequiredService<IDbConnectionFactory>();
        await using var connection = await connections.OpenAsync(CancellationToken.None);
        var tables = (await connection.QueryAsync<string>(connections.Dialect.IsPostgres
            ? "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema();"
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%';")).ToList();
        if (!tables.Contains("instances")) throw new InvalidOperationException("The dump found no store tables.");
        var text = new StringBuilder();
        foreach (var table in tables.Where(t => t != RetentionLease && t != ApiRateWindows && !except.Contains(t) && !(t == RefusalCounts && except.Contains(AuditLog))))
        {
            // Table names come from the catalogue, not from input. Rows sorted: PostgreSQL returns them in heap order,
            // which an update that rewrites a row with the same values (a background assessment) changes.
            var rows = (await connection.QueryAsync($"SELECT * FROM \"{table}\";"))
                .Select(row => string.Join('\t', ((IDictionary<string, object?>)row).Values))
                .Order(StringComparer.Ordinal);
            foreach (var row in rows) text.AppendLine(row);
        }
        return text.ToString();
    }
}
