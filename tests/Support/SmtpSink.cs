using System.Diagnostics;
using System.Text.Json;

namespace IfiDashboard.Tests.Support;

public enum SinkMode { None, StartTls, Ssl }

/// <summary>
/// A real SMTP server on loopback: Debian's aiosmtpd running smtp_sink.py, writing each message it accepts as a JSON
/// file. Created, it holds a port the kernel chose but refuses connections (the "relay down" case); started, it
/// listens on that same port. The port is held by the one process throughout, so no other test can take it between
/// "down" and "up" (with a port picked, freed and bound later, one test's alert once reached another test's relay).
/// </summary>
public sealed class SmtpSink : IAsyncDisposable
{
    public const string Missing = "aiosmtpd is missing: install python3-aiosmtpd (scripts/install-test-dependencies.sh does)";

    static readonly Lazy<string?> Python = new(FindPython);
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);

    Process? _process;

    SmtpSink(SinkMode mode, string? user, string? password)
    {
        Root = Directory.CreateTempSubdirectory("ifi-smtp-").FullName;
        MailDirectory = Directory.CreateDirectory(Path.Combine(Root, "mail")).FullName;
        Certificate = mode == SinkMode.None ? null : TestCertificate.Create(Root);
        var python = Python.Value ?? throw new InvalidOperationException(Missing);
        var start = new ProcessStartInfo(python)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(RepositoryRoot.Path, "tests", "Support", "smtp_sink.py"));
        foreach (var argument in Arguments(mode, user, password)) start.ArgumentList.Add(argument);
        _process = Process.Start(start) ?? throw new InvalidOperationException("python3 did not start");
        Port = int.Parse(ReadLineAfter("BOUND ").AsTask().GetAwaiter().GetResult(), System.Globalization.CultureInfo.InvariantCulture);
    }

    public int Port { get; }
    public string Root { get; }
    public string MailDirectory { get; }
    public TestCertificate? Certificate { get; }

    /// <summary>How long the relay takes over each message before accepting it; set before <see cref="StartAsync()"/>.</summary>
    public TimeSpan AcceptDelay { get; set; }

    /// <summary>A sink holding its port and refusing connections until <see cref="StartAsync()"/>.</summary>
    public static SmtpSink Create(SinkMode mode, string? user = null, string? password = null) => new(mode, user, password);

    /// <summary>A sink listening.</summary>
    public static async Task<SmtpSink> StartAsync(SinkMode mode, string? user = null, string? password = null)
    {
        var sink = Create(mode, user, password);
        try
        {
            await sink.StartAsync();
            return sink;
        }
        catch
        {
            await sink.DisposeAsync();
            throw;
        }
    }

    /// <summary>Starts listening on <see cref="Port"/>.</summary>
    public async Task StartAsync()
    {
        var process = _process ?? throw new InvalidOperationException("The SMTP test server was stopped; create another.");
        await process.StandardInput.WriteLineAsync(
            "LISTEN " + AcceptDelay.TotalSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture));
        await process.StandardInput.FlushAsync();
        await ReadLineAfter("READY");
    }

    /// <summary>Reads the process's output up to the line starting with <paramref name="prefix"/>; returns the rest of it.</summary>
    async ValueTask<string> ReadLineAfter(string prefix)
    {
        var process = _process!;
        using var timeout = new CancellationTokenSource(StartTimeout);
        try
        {
            while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
                if (line.StartsWith(prefix, StringComparison.Ordinal)) return line[prefix.Length..];
            // Its output ended without the line: it is exiting. Its error says why once it has.
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
        }
        var error = process.HasExited ? await process.StandardError.ReadToEndAsync() : $"no {prefix.Trim()} within {StartTimeout.TotalSeconds:F0} s";
        await StopAsync();
        throw new InvalidOperationException($"The SMTP test server did not start: {error}");
    }

    IEnumerable<string> Arguments(SinkMode mode, string? user, string? password)
    {
        yield return "--dir";
        yield return MailDirectory;
        yield return "--mode";
        yield return mode switch { SinkMode.StartTls => "starttls", SinkMode.Ssl => "ssl", _ => "none" };
        if (Certificate is not null)
        {
            yield return "--cert";
            yield return Certificate.CertificatePath;
            yield return "--key";
            yield return Certificate.KeyPath;
        }
        if (user is not null)
        {
            yield return "--user";
            yield return user;
            yield return "--password";
            yield return password ?? "";
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
    public async Task<IReadOnlyList<ReceivedMail>> WaitForAsync(int count, int seconds = 60)
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
