using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Reflection;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// The server as its own process, started the way users start it: <c>dotnet IfiDashboard.Server.dll</c> in the
/// Production environment (every variable that would name another environment, content root or address is removed),
/// from a working directory of its own, which is where its SQLite store lands. Its output is kept for failure messages.
/// </summary>
public sealed class ServerProcess : IAsyncDisposable
{
    static readonly string[] HostVariables =
        ["ENVIRONMENT", "URLS", "HTTP_PORTS", "HTTPS_PORTS", "CONTENTROOT", "WEBROOT", "HOSTINGSTARTUPASSEMBLIES"];

    readonly Process _process;
    readonly List<string> _output = [];

    ServerProcess(Process process) => _process = process;

    /// <summary>The server's build output, as <c>dotnet run --project src/Server</c> runs it.</summary>
    public static string BuildOutput { get; } = Metadata("ServerBuildOutput");

    public static string Project { get; } = Metadata("ServerProject");

    public static string Configuration { get; } = Metadata("Configuration");

    /// <summary>Standard output and standard error as they came, each line once.</summary>
    public string Output
    {
        get { lock (_output) return string.Join('\n', _output); }
    }

    public IReadOnlyList<string> ErrorLines
    {
        get { lock (_output) return _output.Where(l => l.StartsWith("stderr| ", StringComparison.Ordinal)).Select(l => l[8..]).ToList(); }
    }

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;


    public static ServerProcess Start(string binaries, string workingDirectory, params string[] arguments) =>
        Start(binaries, workingDirectory, new Dictionary<string, string>(), arguments);

    /// <summary>Starts the server with <paramref name="environment"/> set on top of the cleaned environment.</summary>
    public static ServerProcess Start(string binaries, string workingDirectory, IReadOnlyDictionary<string, string> environment, params string[] arguments) =>
        StartProgram(Path.Combine(binaries, "IfiDashboard.Server.dll"), workingDirectory, environment, arguments);

    /// <summary>Starts another program of the build (the standalone collector) the same way, in the same cleaned environment.</summary>
    public static ServerProcess StartProgram(string program, string workingDirectory, IReadOnlyDictionary<string, string> environment, params string[] arguments)
    {
        var start = new ProcessStartInfo(DotnetHost())
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(program);
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        foreach (var name in start.Environment.Keys.ToList())
            if (name.Contains("__", StringComparison.Ordinal) ||
                HostVariables.Any(v => name == "ASPNETCORE_" + v || name == "DOTNET_" + v))
                start.Environment.Remove(name);
        foreach (var (name, value) in environment) start.Environment[name] = value;

        var process = new Process { StartInfo = start };
        var server = new ServerProcess(process);
        process.OutputDataReceived += (_, e) => server.Keep("stdout| ", e.Data);
        process.ErrorDataReceived += (_, e) => server.Keep("stderr| ", e.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return server;
    }

    /// <summary>
    /// Starts the server on a port picked now and waits until it answers. A port can be taken between the pick and the
    /// server's bind (by another test's listener, or by one of the server's own demo instances, which bind first):
    /// then the server says so and exits, and it is started again on another port, at most three times.
    /// </summary>
    public static async Task<(ServerProcess Process, string BaseUrl)> StartOnFreePortAsync(string binaries, string workingDirectory,
        Func<string, string[]> arguments, TimeSpan timeout)
    {
        for (var attempt = 1; ; attempt++)
        {
            var baseUrl = $"http://127.0.0.1:{LoopbackPorts.Unassigned()}/";
            var process = Start(binaries, workingDirectory, arguments(baseUrl.TrimEnd('/')));
            try
            {
                await process.WaitUntilHealthyAsync(baseUrl, timeout);
                return (process, baseUrl);
            }
            catch (InvalidOperationException) when (attempt < 3 && process.HasExited
                && process.ErrorLines.Any(l => l.Contains("address already in use", StringComparison.Ordinal)))
            {
                await process.DisposeAsync();
            }
            catch
            {
                await process.DisposeAsync();
                throw;
            }
        }
    }

    /// <summary>Polls <c>/healthz</c> until it answers, the process ends, or the time is up.</summary>
    public async Task WaitUntilHealthyAsync(string baseUrl, TimeSpan timeout)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            if (_process.HasExited)
                throw new InvalidOperationException($"The server exited with code {_process.ExitCode} before it answered:\n{Output}");
            try
            {
                if ((await http.GetAsync(baseUrl + "healthz")).IsSuccessStatusCode) return;
            }
            catch (HttpRequestException) { }
            catch (TaskCanceledException) { }
            if (DateTime.UtcNow > deadline)
                throw new TimeoutException($"The server did not answer /healthz within {timeout.TotalSeconds} s:\n{Output}");
            await Task.Delay(200);
        }
    }

    /// <summary>Waits for a process expected to stop by itself; one still running after the timeout is killed and reported.</summary>
    public async Task WaitForExitAsync(TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            await DisposeAsync();
            throw new TimeoutException($"The server was still running after {timeout.TotalSeconds} s:\n{Output}");
        }
        _process.WaitForExit(); // this overload also waits until the redirected output has been read to its end
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }
        _process.Dispose();
    }

    void Keep(string stream, string? line)
    {
        if (line is null) return;
        lock (_output) _output.Add(stream + line);
    }

    /// <summary>Runs a helper command (a publish, a script) to its end and returns its standard output; a failure throws with both streams.</summary>
    public static async Task<string> RunToEndAsync(ProcessStartInfo start, TimeSpan timeout)
    {
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        using var process = Process.Start(start)!;
        using var cancel = new CancellationTokenSource(timeout);
        var stdout = process.StandardOutput.ReadToEndAsync(cancel.Token);
        var stderr = process.StandardError.ReadToEndAsync(cancel.Token);
        await process.WaitForExitAsync(cancel.Token);
        if (process.ExitCode != 0)
            throw new InvalidOperationException($"{start.FileName} {string.Join(' ', start.ArgumentList)} failed ({process.ExitCode}):\n{await stdout}\n{await stderr}");
        return await stdout;
    }

    /// <summary>The host running the tests (the SDK names it to its children), so the server runs on the same runtime.</summary>
    public static string DotnetHost() => Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host ? host : "dotnet";

    static string Metadata(string key) =>
        typeof(ServerProcess).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == key).Value
        ?? throw new InvalidOperationException($"The test assembly has no {key} metadata (E2E.Tests.csproj).");
}
