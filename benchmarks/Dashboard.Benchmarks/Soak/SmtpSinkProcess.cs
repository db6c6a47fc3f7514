using System.Diagnostics;
using System.Text.Json;

namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>
/// The alert tests' SMTP relay (tests/Support/smtp_sink.py on Debian's aiosmtpd): every message it accepts
/// becomes one JSON file, so the soak counts what a recipient would have received.
/// </summary>
internal sealed class SmtpSinkProcess : IAsyncDisposable
{
    readonly Process _process;

    SmtpSinkProcess(Process process, int port, string mailDirectory)
    {
        _process = process;
        Port = port;
        MailDirectory = mailDirectory;
    }

    public int Port { get; }
    public string MailDirectory { get; }

    public static async Task<SmtpSinkProcess> StartAsync(string directory)
    {
        var mail = Directory.CreateDirectory(Path.Combine(directory, "mail")).FullName;
        var port = ServerProcess.FreePort();
        // Debian's package installs into the system interpreter, which a python3 earlier on PATH may not see.
        var info = new ProcessStartInfo("/usr/bin/python3") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(Path.Combine(RepositoryRoot.Path, "tests", "Support", "smtp_sink.py"));
        foreach (var argument in new[] { "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture), "--dir", mail, "--mode", "none" })
            info.ArgumentList.Add(argument);
        var process = Process.Start(info) ?? throw new InvalidOperationException("python3 did not start the SMTP sink.");
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        try
        {
            while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
                if (line == "READY") return new SmtpSinkProcess(process, port, mail);
        }
        catch (OperationCanceledException)
        {
        }
        if (!process.HasExited) process.Kill();
        throw new InvalidOperationException($"The SMTP sink did not start (python3-aiosmtpd installed?): {await process.StandardError.ReadToEndAsync()}");
    }

    /// <summary>The Message-ID of every mail received, with the outbox row's id before the '@'.</summary>
    public IReadOnlyList<string> MessageIds() =>
        Directory.GetFiles(MailDirectory, "*.json")
            .Select(f => JsonDocument.Parse(File.ReadAllText(f)).RootElement.GetProperty("message_id").GetString() ?? "")
            .ToList();

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync();
        }
        _process.Dispose();
    }
}
