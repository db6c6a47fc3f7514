using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using IfiDashboard.Server.Tests.Deployment;

namespace IfiDashboard.Server.Tests.Alerts;

internal enum SinkMode { None, StartTls, Ssl }

/// <summary>
/// A real SMTP server on loopback: Debian's aiosmtpd running smtp_sink.py, writing each message it accepts as a JSON
/// file. It can be stopped and started again on the same port (the "relay down, then up" case).
/// </summary>
internal sealed class SmtpSink : IAsyncDisposable
{
    public const string Missing = "aiosmtpd is missing: install python3-aiosmtpd (scripts/install-test-dependencies.sh does)";

    static readonly Lazy<string?> Python = new(FindPython);
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(20);

    readonly SinkMode _mode;
    readonly string? _user;
    readonly string? _password;
    Process? _process;

    SmtpSink(SinkMode mode, int port, string? user, string? password)
    {
        _mode = mode;
        _user = user;
        _password = password;
        Port = port;
        Root = Directory.CreateTempSubdirectory("ifi-smtp-").FullName;
        MailDirectory = Directory.CreateDirectory(Path.Combine(Root, "mail")).FullName;
        Certificate = mode == SinkMode.None ? null : TestCertificate.Create(Root);
    }

    public int Port { get; }
    public string Root { get; }
    public string MailDirectory { get; }
    public TestCertificate? Certificate { get; }

    /// <summary>How long the relay takes over each message before accepting it; set before <see cref="StartAsync()"/>.</summary>
    public TimeSpan AcceptDelay { get; set; }

    /// <summary>A sink on a free port, not started yet.</summary>
    public static SmtpSink Create(SinkMode mode, string? user = null, string? password = null) => new(mode, FreePort(), user, password);

    /// <summary>
    /// A sink on a free port, started. The port is free when chosen, but another process (a test host binding port 0)
    /// may take it before the relay binds it: no one has been told this port yet, so another is chosen then.
    /// </summary>
    public static async Task<SmtpSink> StartAsync(SinkMode mode, string? user = null, string? password = null)
    {
        for (var attempt = 1; ; attempt++)
        {
            var sink = Create(mode, user, password);
            try
            {
                await sink.StartAsync();
                return sink;
            }
            catch (InvalidOperationException e) when (attempt < 5 && e.Message.Contains("address already in use", StringComparison.Ordinal))
            {
                await sink.DisposeAsync();
            }
        }
    }

    public async Task StartAsync()
    {
        var python = Python.Value ?? throw new InvalidOperationException(Missing);
        var start = new ProcessStartInfo(python)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(RepositoryRoot.Path, "tests", "Server.Tests", "Alerts", "smtp_sink.py"));
        foreach (var argument in Arguments()) start.ArgumentList.Add(argument);
        var process = Process.Start(start) ?? throw new InvalidOperationException("python3 did not start");
        _process = process;
        using var timeout = new CancellationTokenSource(StartTimeout);
        try
        {
            while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
                if (line == "READY") return;
            // Its output ended without READY: it is exiting (its port taken, say). Its error says why once it has.
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
        }
        var error = process.HasExited ? await process.StandardError.ReadToEndAsync() : "no READY within 20 s";
        await StopAsync();
        throw new InvalidOperationException($"The SMTP test server did not start: {error}");
    }

    IEnumerable<string> Arguments()
    {
        yield return "--port";
        yield return Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        yield return "--dir";
        yield return MailDirectory;
        yield return "--mode";
        yield return _mode switch { SinkMode.StartTls => "starttls", SinkMode.Ssl => "ssl", _ => "none" };
        yield return "--delay";
        yield return AcceptDelay.TotalSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        if (Certificate is not null)
        {
            yield return "--cert";
            yield return Certificate.CertificatePath;
            yield return "--key";
            yield return Certificate.KeyPath;
        }
        if (_user is not null)
        {
            yield return "--user";
            yield return _user;
            yield return "--password";
            yield return _password ?? "";
        }
    }

    public async Task StopAsync()
    {
        if (_process is not { } process) return;
        _process = null;
        if (!process.HasExited)
        {
            process.Kill();
            await process.WaitForExitAsync();
        }
        process.Dispose();
    }

    public IReadOnlyList<ReceivedMail> Messages() =>
        new DirectoryInfo(MailDirectory).GetFiles("*.json")
            .OrderBy(f => f.LastWriteTimeUtc).ThenBy(f => f.Name)
            .Select(f => JsonSerializer.Deserialize<ReceivedMail>(File.ReadAllText(f.FullName))!)
            .ToList();

    /// <summary>Waits, boundedly, until at least <paramref name="count"/> messages have arrived.</summary>
    public async Task<IReadOnlyList<ReceivedMail>> WaitForAsync(int count, int seconds = 20)
    {
        var messages = await Eventually.WaitAsync(() => Messages(), m => m.Count >= count, seconds);
        Assert.True(messages.Count >= count, $"Expected {count} message(s) within {seconds} s, got {messages.Count}.");
        return messages;
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        try { Directory.Delete(Root, recursive: true); } catch (IOException) { }
    }

    static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    // Debian's package installs into the system interpreter; a python3 earlier on PATH (pyenv, venv) may not see it.
    static string? FindPython()
    {
        foreach (var candidate in new[] { "/usr/bin/python3", "python3" })
        {
            try
            {
                using var probe = Process.Start(new ProcessStartInfo(candidate, ["-c", "import aiosmtpd"])
                {
                    RedirectStandardError = true,
                    RedirectStandardOutput = true,
                    UseShellExecute = false,
                });
                if (probe is null) continue;
                probe.WaitForExit(15_000);
                if (probe.HasExited && probe.ExitCode == 0) return candidate;
            }
            catch (System.ComponentModel.Win32Exception)
            {
            }
        }
        return null;
    }
}
