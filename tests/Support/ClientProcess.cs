using System.Diagnostics;
using System.Text;

namespace IfiDashboard.Tests.Support;

/// <summary>
/// Runs an independent client (tsql, node, java, python3) to its end: its input written and closed, its output read,
/// and a generous deadline that only stops a client that hangs.
/// </summary>
public static class ClientProcess
{
    public sealed record Output(int ExitCode, string Standard, string Errors);

    public static async Task<Output> RunAsync(ProcessStartInfo start, string? input, TimeSpan timeout)
    {
        start.RedirectStandardInput = input is not null;
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.StandardOutputEncoding = Encoding.UTF8;
        var name = Path.GetFileName(start.FileName);
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{name} did not start.");
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        if (input is not null)
        {
            await process.StandardInput.WriteAsync(input);
            process.StandardInput.Close();
        }

        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(deadline.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException(
                $"{name} did not finish within {timeout.TotalSeconds} s and was killed. Output so far:\n{await output}\n{await errors}");
        }

        return new Output(process.ExitCode, await output, await errors);
    }
}
