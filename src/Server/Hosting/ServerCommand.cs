namespace IfiDashboard.Server.Hosting;

/// <summary>A command of the server's own command line (<c>api-key</c>, <c>backup</c>), run instead of serving.</summary>
public static class ServerCommand
{
    /// <summary>Runs <paramref name="run"/> with the rest of the arguments when they start with <paramref name="command"/>.</summary>
    public static async Task<bool> TryRunAsync(string[] args, string command, Func<string[], TextWriter, TextWriter, Task<int>> run)
    {
        if (args.Length == 0 || !string.Equals(args[0], command, StringComparison.Ordinal))
            return false;
        Environment.ExitCode = await run(args[1..], Console.Out, Console.Error);
        return true;
    }
}
