using System.Collections.Concurrent;
using System.Diagnostics;

namespace IfiDashboard.Tests.Support;

/// <summary>
/// The standalone collector as an operator starts it: its own process (IfiDashboard.Collector.dll from the test
/// output), configured only through environment variables, with the collector's own appsettings.json
/// (src/Collector/appsettings.json) in a folder named as its content root (the test output's appsettings.json, where
/// a published collector keeps its own, is the server's), with its console log read line by line.
/// </summary>
public sealed class CollectorProcess : IAsyncDisposable
{
    readonly Process _process;
    readonly ConcurrentQueue<string> _lines = new();
    readonly string _workingDirectory = Directory.CreateTempSubdirectory("ifi-collector-cwd-").FullName;

    CollectorProcess(IReadOnlyDictionary<string, string> environment)
    {
        File.Copy(Path.Combine(RepositoryRoot.Path, "src", "Collector", "appsettings.json"), Path.Combine(_workingDirectory, "appsettings.json"));
        var start = new ProcessStartInfo("dotnet")
        {
            ArgumentList = { Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Collector.dll"), "--contentRoot", _workingDirectory },
            WorkingDirectory = _workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var name in start.Environment.Keys.Where(k => k.StartsWith("Collector__", StringComparison.Ordinal) || k.StartsWith("Credentials__", StringComparison.Ordinal)).ToList())
            start.Environment.Remove(name);
        start.Environment["DOTNET_ENVIRONMENT"] = "Production";
        foreach (var (name, value) in environment)
            start.Environment[name] = value;
        _process = new Process { StartInfo = start };
        _process.OutputDataReceived += (_, e) => { if (e.Data is not null) _lines.Enqueue(e.Data); };
        _process.ErrorDataReceived += (_, e) => { if (e.Data is not null) _lines.Enqueue(e.Data); };
        _process.Start();
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public static CollectorProcess Start(IReadOnlyDictionary<string, string> environment) => new(environment);

    public IReadOnlyList<string> Lines => _lines.ToArray();

    public string Log => string.Join('\n', _lines);

    /// <summary>The first log line matching, waiting for it up to <paramref name="seconds"/>; null if none came.</summary>
    public async Task<string?> WaitForLineAsync(Func<string, bool> match, int seconds = 60)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        while (DateTime.UtcNow < deadline)
        {
            if (_lines.FirstOrDefault(match) is { } line)
                return line;
            if (_process.HasExited)
                break;
            await Task.Delay(50);
        }
        // After an exit, the parameterless wait also waits for the redirected output to be read to its end.
        if (_process.HasExited) await _process.WaitForExitAsync();
        return _lines.FirstOrDefault(match);
    }

    /// <summary>The exit code, or null if the process is still running after <paramref name="seconds"/>.</summary>
    public async Task<int?> WaitForExitAsync(int seconds = 60)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(seconds));
        try
        {
            await _process.WaitForExitAsync(timeout.Token);
            return _process.ExitCode;
        }
        catch (OperationCanceledException)
        {
            return null;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }
        _process.Dispose();
        try { Directory.Delete(_workingDirectory, recursive: true); } catch (IOException) { }
    }
}
