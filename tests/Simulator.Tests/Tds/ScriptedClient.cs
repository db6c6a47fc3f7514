using System.Diagnostics;
using System.Security.Cryptography;
using System.Text.Json;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// Clients written independently of Microsoft's, run over a line script (tests/TdsClients/JtdsScript.java and
/// dblib_script.py): jTDS, a JDBC driver (Debian's libjtds-java, with the JDK's java), and pymssql on FreeTDS's db-lib
/// (Debian's python3-pymssql). scripts/install-test-dependencies.sh installs both. Script lines: <c>sql TEXT</c> runs a
/// batch; <c>prepare TEXT</c> (jTDS) or <c>call PROCEDURE</c> starts a parameterised call, <c>int NAME N</c>,
/// <c>bytes NAME HEX</c> and <c>string NAME TEXT</c> bind its next parameter and <c>execute</c> runs it (again and
/// again); <c>autocommit on|off</c> (jTDS), <c>commit</c>, <c>rollback</c>. Each client prints one JSON object per
/// result set, error or step.
/// </summary>
internal static class ScriptedClient
{
    // A safety net only: javac is slow on a loaded machine.
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(240);

    public const string JtdsJar = "/usr/share/java/jtds.jar";

    // `java JtdsScript.java` compiles the source at every start, about 3 s of processor a run: compiled once instead.
    private static readonly Lazy<Task<string>> JtdsClasses = new(CompileJtdsScriptAsync);

    /// <summary>What the client printed: one line per result set (<c>columns</c>, <c>rows</c>), error or step.</summary>
    public sealed record Result(IReadOnlyList<JsonElement> Lines, string Raw)
    {
        public IReadOnlyList<JsonElement> ResultSets => [.. Lines.Where(l => l.TryGetProperty("rows", out _))];

        public IReadOnlyList<int> Errors =>
            [.. Lines.Where(l => l.TryGetProperty("error", out _)).Select(l => l.GetProperty("error").GetProperty("number").GetInt32())];

        /// <summary>The first row's cells of result set <paramref name="index"/>, as the client's text.</summary>
        public IReadOnlyList<string?> FirstRow(int index) =>
            [.. ResultSets[index].GetProperty("rows")[0].EnumerateArray().Select(v => v.ValueKind == JsonValueKind.Null ? null : v.GetString())];

        public IReadOnlyList<string> ColumnTypes(int index) =>
            [.. ResultSets[index].GetProperty("columns").EnumerateArray().Select(c => c.GetProperty("type").GetString()!)];
    }

    /// <param name="options">jTDS connection properties; <c>ssl=require</c> makes it send PRELOGIN (TDS 7.1, "tds=8.0" in jTDS's terms).</param>
    public static async Task<Result> JtdsAsync(int port, string script, string options = ";ssl=require")
    {
        if (!File.Exists(JtdsJar))
            throw new InvalidOperationException("jTDS is not installed: apt-get install -y libjtds-java default-jdk-headless (the test script does this).");
        return await RunAsync("java", ["-cp", $"{JtdsJar}:{await JtdsClasses.Value}", "JtdsScript",
            $"jdbc:jtds:sqlserver://127.0.0.1:{port}/master{options}", TestFleet.Login, TestFleet.Password], script);
    }

    /// <param name="tdsVersion">The TDS version FreeTDS asks for: 7.1, 7.2 or 7.3 (pymssql 2.2 knows no 7.4).</param>
    public static Task<Result> DbLibAsync(int port, string script, string tdsVersion = "7.3") =>
        RunAsync("/usr/bin/python3", [Path.Combine(ClientsDirectory(), "dblib_script.py"), port.ToString(System.Globalization.CultureInfo.InvariantCulture),
            TestFleet.Login, TestFleet.Password, tdsVersion], script);

    /// <summary>
    /// The script's classes beside the test assembly, in a folder named for the source's hash (an edited script is
    /// compiled again), compiled into a folder of their own and moved into place, so test runs side by side never
    /// read a half-written class.
    /// </summary>
    private static async Task<string> CompileJtdsScriptAsync()
    {
        var source = Path.Combine(ClientsDirectory(), "JtdsScript.java");
        var hash = Convert.ToHexString(SHA256.HashData(await File.ReadAllBytesAsync(source)))[..16];
        var classes = Path.Combine(AppContext.BaseDirectory, "jtds-script", hash);
        if (File.Exists(Path.Combine(classes, "JtdsScript.class"))) return classes;

        var staging = $"{classes}-{Guid.NewGuid():N}";
        var output = await ClientProcess.RunAsync(new ProcessStartInfo("javac") { ArgumentList = { "-cp", JtdsJar, "-d", staging, source } },
            input: null, Timeout);
        if (output.ExitCode != 0)
            throw new InvalidOperationException($"javac did not compile {source} (exit {output.ExitCode}):\n{output.Standard}\n{output.Errors}");
        try
        {
            Directory.Move(staging, classes);
        }
        catch (IOException) when (File.Exists(Path.Combine(classes, "JtdsScript.class")))
        {
            Directory.Delete(staging, recursive: true);
        }
        return classes;
    }

    private static async Task<Result> RunAsync(string program, IReadOnlyList<string> arguments, string script)
    {
        var start = new ProcessStartInfo(program);
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        var output = await ClientProcess.RunAsync(start, script, Timeout);
        var raw = $"{output.Standard}\n{output.Errors}";
        var lines = output.Standard.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Where(line => line.StartsWith('{'))
            .Select(line => JsonDocument.Parse(line).RootElement.Clone())
            .ToList();
        if (lines.Count == 0 || !lines[0].GetProperty("connected").GetBoolean())
            throw new InvalidOperationException($"{program} did not connect (exit {output.ExitCode}):\n{raw}");
        return new Result(lines, raw);
    }

    private static string ClientsDirectory()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "tests", "TdsClients");
            if (File.Exists(Path.Combine(candidate, "JtdsScript.java"))) return candidate;
        }
        throw new InvalidOperationException("tests/TdsClients/JtdsScript.java not found above " + AppContext.BaseDirectory);
    }
}
