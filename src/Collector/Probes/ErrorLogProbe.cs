using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// Reads "Database Instant File Initialization: enabled|disabled" from the current error log. Run only where the
/// services DMV could not tell (a build without the IFI column), so a fleet of patched instances never pays for it.
/// </summary>
internal static class ErrorLogProbe
{
    public static async Task<string?> ReadStartupIfiAsync(ProbeContext context)
    {
        var permission = context.MajorVersion >= 16 ? "VIEW ANY ERROR LOG" : "VIEW SERVER STATE";
        return await context.RunAsync<string?>(ProbeNames.ErrorLog, permission, null, async () =>
        {
            var rows = await context.Connection.QueryAsync<ErrorLogRow>(context.Command(SqlScripts.ErrorLogIfi));
            var line = rows.Where(r => r.Text is not null).OrderByDescending(r => r.LogDate).FirstOrDefault()?.Text;
            var state = Parse(line);
            context.Add(state is null
                ? new ProbeOutcome(ProbeNames.ErrorLog, OutcomeClass.BuildTooOld,
                    "The current error log has no 'Database Instant File Initialization' line (older build, or the log was cycled since start-up).")
                : new ProbeOutcome(ProbeNames.ErrorLog, OutcomeClass.Ok, $"Start-up line: IFI {state}."));
            return state;
        });
    }

    internal static string? Parse(string? line)
    {
        if (line is null) return null;
        const string marker = "Database Instant File Initialization:";
        var at = line.IndexOf(marker, StringComparison.OrdinalIgnoreCase);
        if (at < 0) return null;
        var rest = line[(at + marker.Length)..].TrimStart();
        return rest.StartsWith("enabled", StringComparison.OrdinalIgnoreCase) ? "enabled"
            : rest.StartsWith("disabled", StringComparison.OrdinalIgnoreCase) ? "disabled"
            : null;
    }
}
