using System.Diagnostics;

namespace IfiDashboard.Collector.Tests.Support;

/// <summary>
/// The collector's Windows build (win-x64, self-contained, as a Windows host without .NET runs it) under Wine, in a
/// Wine prefix of its own for one test class. ./test.sh publishes that build once per run, beside the other Windows
/// publish, and names the folder in <see cref="PublishFolderVariable"/>; without it (a developer's <c>dotnet test</c>)
/// the fixture publishes it itself. Wine comes from scripts/install-test-dependencies.sh.
/// </summary>
public sealed class WineCollector : IAsyncLifetime
{
    public const string PublishFolderVariable = "IFI_TEST_WINE_COLLECTOR";

    /// <summary>wineboot and a publish under the suite's load on two cores: generous, a safety net only.</summary>
    static readonly TimeSpan SetUpTimeout = TimeSpan.FromMinutes(10);

    /// <summary>A check under Wine starts a whole .NET runtime through Wine's loader: minutes under load, not seconds.</summary>
    static readonly TimeSpan CheckTimeout = TimeSpan.FromMinutes(5);

    readonly string scratch = Directory.CreateTempSubdirectory("ifi-wine-").FullName;
    string collector = "";

    string Prefix => Path.Combine(scratch, "prefix");

    public async Task InitializeAsync()
    {
        var folder = Environment.GetEnvironmentVariable(PublishFolderVariable);
        if (string.IsNullOrEmpty(folder))
        {
            folder = Path.Combine(scratch, "publish");
            // Into the scratch folder (with its own artifacts path), so the working tree's bin/ and obj/ stay as the tests use them.
            var publish = await RunAsync("dotnet", ["publish", Path.Combine(RepositoryRoot.Path, "src", "Collector"), "-c", "Release",
                "-r", "win-x64", "--self-contained", "true", "--artifacts-path", Path.Combine(scratch, "artifacts"), "-o", folder,
                "--nologo", "-v", "q"], new Dictionary<string, string>(), SetUpTimeout);
            Assert.True(publish.ExitCode == 0, $"The win-x64 publish failed: {publish}");
        }
        collector = Path.Combine(folder, "IfiDashboard.Collector.exe");
        Assert.True(File.Exists(collector), $"No {collector}: publish the collector for win-x64, self-contained, into ${PublishFolderVariable}.");

        // Without Mono or Gecko, which wineboot would offer to download and the self-contained build needs neither of.
        // Only here: Wine loads every .NET assembly through its mscoree, so the collector's runs must keep it.
        var boot = await RunAsync("wine", ["wineboot", "-i"], new Dictionary<string, string> { ["WINEDLLOVERRIDES"] = "mscoree,mshtml=" }, SetUpTimeout);
        Assert.True(boot.ExitCode == 0, $"wineboot failed: {boot}");
    }

    /// <summary>Runs <c>IfiDashboard.Collector.exe check ...</c> under Wine with exactly the collector settings given.</summary>
    public Task<CheckResult> CheckAsync(IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment) =>
        RunAsync("wine", [collector, "check", .. arguments], environment, CheckTimeout);

    /// <summary>
    /// Runs a command with its output in files, not pipes: wineboot leaves Wine's services running in the prefix, and a
    /// process that inherits a pipe keeps it open, so reading a pipe to its end would wait for the prefix to end.
    /// </summary>
    async Task<CheckResult> RunAsync(string command, IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment, TimeSpan timeout)
    {
        var output = Path.Combine(scratch, $"{Guid.NewGuid():N}.out");
        var error = Path.ChangeExtension(output, ".err");
        var start = new ProcessStartInfo("sh", ["-c", "out=$1; err=$2; shift 2; exec \"$@\" >\"$out\" 2>\"$err\" </dev/null", "sh", output, error, command, .. arguments])
        {
            UseShellExecute = false,
        };
        start.Environment["WINEPREFIX"] = Prefix;
        start.Environment["WINEDEBUG"] = "-all";
        start.Environment.Remove("DISPLAY");
        start.Environment.Remove("WAYLAND_DISPLAY");
        foreach (var (name, value) in environment) start.Environment[name] = value;
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{command} did not start.");
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{command} {string.Join(' ', arguments)} did not end within {timeout}.");
        }
        return new CheckResult(process.ExitCode, await File.ReadAllTextAsync(output), await File.ReadAllTextAsync(error));
    }

    public async Task DisposeAsync()
    {
        // Ends every process of this prefix (its services, the wineserver), and only this prefix's; then waits for them
        // to be gone, so the prefix can be deleted.
        foreach (var option in new[] { "-k", "-w" })
        {
            using var wineserver = Process.Start(new ProcessStartInfo("wineserver", [option]) { UseShellExecute = false, Environment = { ["WINEPREFIX"] = Prefix } });
            if (wineserver is null) continue;
            using var cancel = new CancellationTokenSource(SetUpTimeout);
            await wineserver.WaitForExitAsync(cancel.Token);
        }
        Directory.Delete(scratch, recursive: true);
    }
}
