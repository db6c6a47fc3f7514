using System.Diagnostics;
using System.Net.Sockets;
using System.Text;

namespace IfiDashboard.Server.Tests.Deployment;

/// <summary>
/// Both deployables started the way systemd starts a Type=notify unit: by a parent process named systemd (how
/// Microsoft.Extensions.Hosting.Systemd recognises a service manager) with NOTIFY_SOCKET naming a Unix datagram
/// socket, on which systemd waits for READY=1 before it counts the service as started.
/// </summary>
public sealed class ServiceManagerTests
{
    public static TheoryData<string, Dictionary<string, string>> Deployables => new()
    {
        { "Collector", new() { ["Collector__ServerUrl"] = "http://127.0.0.1:9/", ["Collector__ApiKey"] = "service-manager-test-key" } },
        { "Server", new() { ["ASPNETCORE_URLS"] = "http://127.0.0.1:0", ["Store__ConnectionString"] = "Data Source=store.db" } },
    };

    [Theory]
    [MemberData(nameof(Deployables))]
    public async Task Deployable_started_by_systemd_notifies_it_when_ready(string project, Dictionary<string, string> settings)
    {
        var directory = Directory.CreateTempSubdirectory("ifi-systemd-");
        try
        {
            var notifySocketPath = Path.Combine(directory.FullName, "notify");
            using var notifySocket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
            notifySocket.Bind(new UnixDomainSocketEndPoint(notifySocketPath));
            var serviceManager = Path.Combine(directory.FullName, "systemd");
            File.CreateSymbolicLink(serviceManager, "/bin/sh");

            // The shell named systemd stays the parent: "; exit" keeps it from replacing itself with dotnet.
            var start = new ProcessStartInfo(serviceManager)
            {
                ArgumentList = { "-c", "\"$0\" \"$@\"; exit $?", "dotnet", BuiltAssembly(project) },
                WorkingDirectory = directory.FullName,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            start.Environment["NOTIFY_SOCKET"] = notifySocketPath;
            foreach (var (name, value) in settings) start.Environment[name] = value;
            var output = new StringBuilder();
            using var process = new Process { StartInfo = start };
            process.OutputDataReceived += (_, e) => { lock (output) output.AppendLine(e.Data); };
            process.ErrorDataReceived += (_, e) => { lock (output) output.AppendLine(e.Data); };
            process.Start();
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            try
            {
                using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(90));
                var ready = ReceiveReadyAsync(notifySocket, timeout.Token);
                var exited = process.WaitForExitAsync(timeout.Token);
                var first = await Task.WhenAny(ready, exited);
                Assert.True(first == ready && ready.IsCompletedSuccessfully,
                    $"{project} did not send READY=1 to NOTIFY_SOCKET. Its output:\n{Output(output)}");
            }
            finally
            {
                process.Kill(entireProcessTree: true);
                await process.WaitForExitAsync();
            }
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    static async Task ReceiveReadyAsync(Socket notifySocket, CancellationToken cancellationToken)
    {
        var buffer = new byte[4096];
        while (true)
        {
            var length = await notifySocket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken);
            if (Encoding.UTF8.GetString(buffer, 0, length).Split('\n').Contains("READY=1")) return;
        }
    }

    /// <summary>The deployable as <c>dotnet build</c> left it, in the configuration these tests were built in.</summary>
    static string BuiltAssembly(string project)
    {
        var configuration = new DirectoryInfo(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)).Parent!.Name;
        var path = Path.Combine(RepositoryRoot.Path, "src", project, "bin", configuration, "net10.0", $"IfiDashboard.{project}.dll");
        Assert.True(File.Exists(path), $"{path} is missing: build the solution first.");
        return path;
    }

    static string Output(StringBuilder output)
    {
        lock (output) return output.ToString();
    }
}
