using System.Diagnostics;

namespace IfiDashboard.Tests.Support;

/// <summary>
/// Runs `IfiDashboard.Collector check ...` as its own process, as an operator does, with exactly the environment given:
/// the collector's settings (`Credentials__...`) and, for Kerberos, the variables GSSAPI reads at start.
/// </summary>
public static class CollectorCheck
{
    static readonly TimeSpan Timeout = TimeSpan.FromSeconds(90);

    public static async Task<CheckResult> RunAsync(IEnumerable<string> arguments, IReadOnlyDictionary<string, string> environment)
    {
        var start = new ProcessStartInfo("dotnet", [Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Collector.dll"), "check", .. arguments])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        // Whatever the test machine's account has must not help or hinder: only what the test gives counts.
        start.Environment.Remove("KRB5CCNAME");
        start.Environment.Remove("KRB5_CLIENT_KTNAME");
        foreach (var (name, value) in environment) start.Environment[name] = value;
        using var process = Process.Start(start) ?? throw new InvalidOperationException("The collector did not start.");
        using var timeout = new CancellationTokenSource(Timeout);
        var output = process.StandardOutput.ReadToEndAsync(timeout.Token);
        var error = process.StandardError.ReadToEndAsync(timeout.Token);
        await process.WaitForExitAsync(timeout.Token);
        return new CheckResult(process.ExitCode, await output, await error);
    }
}

/// <summary>What `check` printed: a line per probe (probe, outcome, message), advice lines, and the IFI state.</summary>
public sealed record CheckResult(int ExitCode, string Output, string Error)
{
    IEnumerable<string[]> Lines => Output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => l.TrimEnd('\r').Split('\t'));

    /// <summary>The connect probe's outcome and message.</summary>
    public (string Outcome, string Message) Connect =>
        Lines.FirstOrDefault(l => l[0] == "connect") is [_, var outcome, var message] ? (outcome, message) : throw new InvalidOperationException($"No connect line in: {Output}{Error}");

    public string? Ifi => Lines.FirstOrDefault(l => l[0] == "IFI")?[1];

    public string Advice => string.Join(" ", Output.Split('\n').Where(l => l.StartsWith("  advice: ", StringComparison.Ordinal)));

    public override string ToString() => $"exit {ExitCode}: {Output}{Error}";
}
