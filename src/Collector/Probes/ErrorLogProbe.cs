using Dapper;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// Reads "Database Instant File Initialization: enabled|disabled" from the error log that begins at the last service
/// start. Run only where the services DMV could not tell (a build without the IFI column), so a fleet of patched
/// instances never pays for it.
/// </summary>
internal static class ErrorLogProbe
{
    /// <summary>SQL Server keeps at most 99 archived logs; sp_cycle_errorlog may have pushed the start-up one back.</summary>
    const int OldestArchive = 99;

    public static async Task<string?> ReadStartupIfiAsync(ProbeContext context) =>
        await context.RunAsync<string?>(ProbeNames.ErrorLog, null, async () =>
        {
            var script = SqlScripts.ErrorLogIfi;
            var newestLog = -1;
            for (var log = 0; log <= OldestArchive; log++)
            {
                List<ErrorLogRow> rows;
                try
                {
                    rows = await ReadAsync(context, script, log);
                }
                catch (SqlException e) when (e.Number == 15003 && script == SqlScripts.ErrorLogIfi && context.MajorVersion is > 0 and < 16)
                {
                    // The procedure's body checks securityadmin before 2022; the extended procedure it calls checks
                    // EXECUTE on itself, the least privilege that reads the log. Refused there too: classified 229.
                    script = SqlScripts.ErrorLogIfiExtended;
                    rows = await ReadAsync(context, script, log);
                }
                catch (SqlException e) when (log > 0 && !FailureClassifier.IsPermissionFailure(e))
                {
                    // [U] the error for a log number beyond the archives kept: any error on an archive ends the search.
                    break;
                }

                newestLog = log;
                var line = rows.Where(r => r.Text is not null).OrderByDescending(r => r.LogDate).FirstOrDefault()?.Text;
                if (Parse(line) is { } state)
                {
                    context.Ok(ProbeNames.ErrorLog, log == 0 ? $"Start-up line: IFI {state}." : $"Start-up line in archived error log {log}: IFI {state}.");
                    return state;
                }
            }

            if (await StartupLogNotInEnglishAsync(context, script, newestLog) is { } startupLog)
            {
                context.Add(new ProbeOutcome(ProbeNames.ErrorLog, OutcomeClass.ErrorLogNotEnglish,
                    $"Error log {startupLog} holds the start-up version line but no English start-up line ('{EnglishStartupLine}'): " +
                    "the instance writes its error log in another language (a localized SQL Server), so its IFI line cannot be read " +
                    "and the IFI state stays unknown."));
                return null;
            }

            context.Add(new ProbeOutcome(ProbeNames.ErrorLog, OutcomeClass.BuildTooOld,
                "No error log kept on the instance has a 'Database Instant File Initialization' line (a build that " +
                "writes none, or the log was cycled more often since start-up than archives are kept)."));
            return null;
        });

    static async Task<List<ErrorLogRow>> ReadAsync(ProbeContext context, string script, int log) =>
        (await context.Connection.QueryAsync<ErrorLogRow>(context.Command(script, ProbeContext.Parameters(("log", log))))).AsList();

    /// <summary>A line every English start-up writes, a few lines after the version line.</summary>
    internal const string EnglishStartupLine = "Server process ID is";

    /// <summary>
    /// The number of the log that began at the last start when it is not in English; null when it is, or when no kept
    /// log holds the start any more. The start-up version line ("Microsoft SQL Server ... - 13.0.1601.5 (X64)") carries
    /// the build number in every language [U: the line's words may be translated; the number is not], so it finds the
    /// start-up log; an English log has the process id line beside it. Only the English IFI line is recognised: the
    /// translations SQL Server ships are not documented, and a guessed one could misread a localized log.
    /// </summary>
    static async Task<int?> StartupLogNotInEnglishAsync(ProbeContext context, string ifiScript, int newestLog)
    {
        if (context.Identity?.ProductVersion is not { Length: > 0 } version) return null;
        var search = ifiScript == SqlScripts.ErrorLogIfiExtended ? SqlScripts.ErrorLogSearchExtended : SqlScripts.ErrorLogSearch;
        for (var log = 0; log <= newestLog; log++)
        {
            if ((await SearchAsync(context, search, log, version)).Count == 0) continue;
            return (await SearchAsync(context, search, log, EnglishStartupLine)).Count == 0 ? log : null;
        }

        return null;
    }

    static async Task<List<ErrorLogRow>> SearchAsync(ProbeContext context, string script, int log, string search) =>
        (await context.Connection.QueryAsync<ErrorLogRow>(context.Command(script, ProbeContext.Parameters(("log", log), ("search", search))))).AsList();

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
