using System.Diagnostics;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// FreeTDS's tsql, a TDS client written independently of Microsoft's: what it accepts is evidence that the simulator
/// speaks TDS and not merely what SqlClient tolerates. Debian's freetds-bin package provides it.
/// </summary>
internal static class FreeTdsClient
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    public sealed record Result(int ExitCode, string Output, string Errors);

    /// <param name="encryption">FreeTDS's "encryption" setting: off, request (its default) or require.</param>
    /// <param name="tdsVersion">The TDS version tsql asks for: 7.1 to 7.4.</param>
    public static async Task<Result> RunAsync(int port, string login, string password, string encryption, string script,
        string tdsVersion = "7.4")
    {
        var tsql = FindOnPath("tsql") ?? throw new InvalidOperationException(
            "FreeTDS's tsql is not on PATH. Install it with: apt-get install -y freetds-bin (the test script does this).");
        var directory = Directory.CreateTempSubdirectory("ifi-freetds-");
        try
        {
            // tsql -H reads the [global] section, so a private freetds.conf sets the encryption for this run only.
            var config = Path.Combine(directory.FullName, "freetds.conf");
            await File.WriteAllTextAsync(config, $"[global]\n\ttds version = {tdsVersion}\n\tencryption = {encryption}\n");
            var start = new ProcessStartInfo(tsql)
            {
                ArgumentList = { "-H", "127.0.0.1", "-p", port.ToString(System.Globalization.CultureInfo.InvariantCulture), "-U", login, "-P", password },
                Environment = { ["TDSVER"] = tdsVersion, ["FREETDSCONF"] = config },
            };
            var output = await ClientProcess.RunAsync(start, script, Timeout);
            return new Result(output.ExitCode, output.Standard, output.Errors);
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    private static string? FindOnPath(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "")
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(dir => Path.Combine(dir, program))
            .FirstOrDefault(File.Exists);
}
