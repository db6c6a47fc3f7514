using System.Globalization;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.Procedures;

internal sealed record ErrorLogLine(DateTime LogDate, string ProcessInfo, string Text);

/// <summary>
/// What the simulated error logs hold. The log that begins at the last service start (0, or the archive number of
/// sp_cycle_errorlog runs since) holds the start-up lines, including the Instant File Initialization line on builds
/// that write it (reference section 2); logs cycled after it begin with "reinitialized". Zeroing lines of trace flags
/// 3004 and 3605 (section 5) from since the start are in log 0, older ones in the archive before the start's log.
/// </summary>
internal static class ErrorLogLines
{
    private const int BytesPerPage = 8192;

    /// <summary>Whether the log exists: the current one and ErrorLogArchives archives.</summary>
    public static bool Exists(ScenarioInstance instance, int logNumber) =>
        logNumber >= 0 && logNumber <= instance.ErrorLogArchives;

    public static IReadOnlyList<ErrorLogLine> For(SessionContext session, int logNumber)
    {
        var instance = session.Instance;
        var started = instance.LastStartupTime;
        var startupLog = instance.ErrorLogCyclesSinceStartup;
        var lines = new List<ErrorLogLine>();
        if (logNumber == startupLog)
        {
            lines.AddRange(StartupLines(session));
        }
        else if (logNumber < startupLog)
        {
            var at = ServerClock.Local(instance, started).AddMinutes(startupLog - logNumber);
            lines.Add(new ErrorLogLine(at, "spid51", "The error log has been reinitialized. See the previous log for older entries."));
        }

        var sinceStart = logNumber == 0;
        if (sinceStart || logNumber == startupLog + 1)
        {
            foreach (var zeroing in instance.ErrorLogZeroing.Where(z => (z.Time >= started) == sinceStart))
            {
                lines.AddRange(ZeroingLines(instance, zeroing));
            }
        }

        return [.. lines.OrderBy(l => l.LogDate)];
    }

    private static IEnumerable<ErrorLogLine> StartupLines(SessionContext session)
    {
        var instance = session.Instance;
        var at = ServerClock.Local(instance, instance.LastStartupTime);
        var banner = VersionBanner.For(session).Split('\n')[0].Trim();
        yield return new ErrorLogLine(at, "Server", banner);
        var processId = instance.ProcessId.ToString(CultureInfo.InvariantCulture);
        var english = instance.ErrorLogLanguage == ErrorLogLanguage.English;
        yield return new ErrorLogLine(at, "Server", english ? $"Server process ID is {processId}." : Localized.ProcessId(instance.ErrorLogLanguage, processId));
        if (session.Profile.LogsIfiAtStartup)
        {
            yield return new ErrorLogLine(at.AddSeconds(1), "Server", english
                ? $"Database Instant File Initialization: {(instance.IfiEnabled ? "enabled" : "disabled")}. For security and " +
                  "performance considerations see the topic 'Database Instant File Initialization' in SQL Server Books " +
                  "Online. This is an informational message only. No user action is required."
                : Localized.Ifi(instance.ErrorLogLanguage, instance.IfiEnabled));
        }
    }

    /// <summary>Start-up lines of a localized server (see <see cref="ErrorLogLanguage"/>: the simulator's renderings).</summary>
    private static class Localized
    {
        public static string ProcessId(ErrorLogLanguage language, string id) => language switch
        {
            ErrorLogLanguage.German => $"Die Serverprozess-ID ist {id}.",
            ErrorLogLanguage.French => $"L'ID de processus du serveur est {id}.",
            _ => $"サーバー プロセス ID は {id} です。",
        };

        public static string Ifi(ErrorLogLanguage language, bool enabled) => language switch
        {
            ErrorLogLanguage.German => $"Sofortige Dateiinitialisierung für Datenbanken: {(enabled ? "aktiviert" : "deaktiviert")}. " +
                "Dies ist eine Informationsmeldung. Es ist keine Benutzeraktion erforderlich.",
            ErrorLogLanguage.French => $"Initialisation instantanée des fichiers de base de données : {(enabled ? "activée" : "désactivée")}. " +
                "Ce message est fourni à titre d'information uniquement. Aucune action de l'utilisateur n'est requise.",
            _ => $"データベースの瞬時ファイル初期化: {(enabled ? "有効" : "無効")}。これは情報メッセージです。ユーザーの操作は必要ありません。",
        };
    }

    private static IEnumerable<ErrorLogLine> ZeroingLines(ScenarioInstance instance, ScenarioZeroingEntry zeroing)
    {
        var process = "spid" + zeroing.Spid.ToString(CultureInfo.InvariantCulture);
        var start = ServerClock.Local(instance, zeroing.Time);
        yield return new ErrorLogLine(start, process,
            $"Zeroing {zeroing.PhysicalName} from page {zeroing.FromPage} to {zeroing.ToPage} " +
            $"(0x{zeroing.FromPage * BytesPerPage:x} to 0x{zeroing.ToPage * BytesPerPage:x})");
        var end = ServerClock.Local(instance, zeroing.Time.AddMilliseconds(zeroing.ElapsedMs ?? 0));
        yield return new ErrorLogLine(end, process, zeroing.ElapsedMs is { } elapsed
            ? $"Zeroing completed on {zeroing.PhysicalName} (elapsed = {elapsed} ms)"
            : $"Zeroing completed on {zeroing.PhysicalName}");
    }
}
