using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// The real server as a separate process (<c>dotnet IfiDashboard.Server.dll</c>), so its resident memory is its own
/// and not mixed with the benchmark's. Its output goes to a log file beside the store for when something looks off.
/// </summary>
internal sealed class ServerProcess : IAsyncDisposable
{
    readonly Process _process;
    readonly StreamWriter _log;

    ServerProcess(Process process, StreamWriter log, Uri address)
    {
        _process = process;
        _log = log;
        Address = address;
    }

    public Uri Address { get; }
    public int Pid => _process.Id;
    public bool HasExited => _process.HasExited;
    public ProcessMemory Memory() => ProcessMemory.Read(_process.Id);

    /// <summary>
    /// Starts the server on a port picked now and waits until it answers <c>/healthz</c>. A port can be taken between
    /// the pick and the server's bind (by a simulated instance of the run, or another process's listener): then the
    /// server says so and exits, and it is started again on another port, at most three times (the pattern of the E2E
    /// tests' <c>ServerProcess.StartOnFreePortAsync</c>).
    /// </summary>
    public static async Task<ServerProcess> StartAsync(string serverDll, string workingDirectory, string logPath,
        IReadOnlyDictionary<string, string> settings, IReadOnlyDictionary<string, string> environment, HttpClient http, TimeSpan timeout)
    {
        for (var attempt = 1; ; attempt++)
        {
            var server = Launch(LoopbackPorts.Unassigned(), serverDll, workingDirectory, logPath, append: attempt > 1, settings, environment);
            try
            {
                await server.WaitUntilAliveAsync(http, timeout);
                return server;
            }
            catch (InvalidOperationException) when (attempt < 3 && server.HasExited && server._portTaken)
            {
                await server.DisposeAsync();
            }
            catch
            {
                await server.DisposeAsync();
                throw;
            }
        }
    }

    static ServerProcess Launch(int port, string serverDll, string workingDirectory, string logPath, bool append,
        IReadOnlyDictionary<string, string> settings, IReadOnlyDictionary<string, string> environment)
    {
        var info = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        info.ArgumentList.Add(serverDll);
        info.ArgumentList.Add("--urls");
        info.ArgumentList.Add($"http://127.0.0.1:{port}");
        // The pages are timed as a wall screen reads them: anonymous read, an administrator's opt-in (docs/security.md).
        info.ArgumentList.Add("--Auth:AllowAnonymousRead=true");
        foreach (var (key, value) in settings)
            info.ArgumentList.Add($"--{key}={value}");
        // Production, like an installed server: no developer exception page or static-asset manifest lookups.
        info.Environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        info.Environment["DOTNET_ENVIRONMENT"] = "Production";
        foreach (var (name, value) in environment)
            info.Environment[name] = value;

        var log = new StreamWriter(logPath, append) { AutoFlush = true };
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var server = new ServerProcess(process, log, new Uri($"http://127.0.0.1:{port}/"));
        process.OutputDataReceived += (_, e) => server.Keep(e.Data);
        process.ErrorDataReceived += (_, e) => server.Keep(e.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return server;
    }

    bool _portTaken;

    void Keep(string? line)
    {
        if (line is null) return;
        if (line.Contains("address already in use", StringComparison.Ordinal)) _portTaken = true;
        lock (_log) _log.WriteLine(line);
    }

    /// <summary>Waits for <c>/healthz</c>: the host is up, migrations ran, requests are served.</summary>
    async Task WaitUntilAliveAsync(HttpClient http, TimeSpan timeout)
    {
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < timeout)
        {
            if (_process.HasExited)
                throw new InvalidOperationException($"The server exited with code {_process.ExitCode}; see its log.");
            try
            {
                using var response = await http.GetAsync(new Uri(Address, "healthz"));
                if (response.StatusCode == HttpStatusCode.OK) return;
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }
            await Task.Delay(50);
        }
        throw new TimeoutException($"The server did not answer /healthz within {timeout.TotalSeconds:F0} s.");
    }

    internal static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    bool _disposed;

    public async ValueTask DisposeAsync()
    {
        if (_disposed) return;
        _disposed = true;
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }
        _process.Dispose();
        lock (_log) _log.Dispose();
    }
}
