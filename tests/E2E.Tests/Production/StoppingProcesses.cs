namespace IfiDashboard.E2E.Tests.Production;

/// <summary>What a process that stopped by itself left: its exit code and what it wrote.</summary>
public sealed record StoppedProcess(int ExitCode, IReadOnlyList<string> ErrorLines, string Output);

/// <summary>
/// Processes expected to stop by themselves (a start refused over a wrong setting), run a few at a time instead of one
/// after another: each spends most of its short life loading the runtime and waiting for the processor, so side by
/// side they share that wait. The bound keeps a loaded machine from starting dozens at once.
/// </summary>
public sealed class StoppingProcesses(int atOnce)
{
    /// <summary>A safety net: on an idle machine such a process stops within a second or two.</summary>
    public static readonly TimeSpan ExitTimeout = TimeSpan.FromSeconds(90);

    readonly SemaphoreSlim _slots = new(atOnce, atOnce);

    /// <summary>Starts the process once a place is free and waits until it stops (<see cref="ExitTimeout"/> from its start).</summary>
    public async Task<StoppedProcess> RunAsync(Func<ServerProcess> start)
    {
        await _slots.WaitAsync();
        try
        {
            await using var process = start();
            await process.WaitForExitAsync(ExitTimeout);
            return new StoppedProcess(process.ExitCode, process.ErrorLines, process.Output);
        }
        finally
        {
            _slots.Release();
        }
    }
}
