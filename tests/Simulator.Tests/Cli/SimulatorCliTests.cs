using System.Diagnostics;
using Dapper;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Cli;

/// <summary>
/// The documented contract: `--scenario FILE` serves every instance and prints one line per instance,
/// NAME&lt;TAB&gt;connection string, then runs until stopped.
/// </summary>
public sealed class SimulatorCliTests
{
    static string RepositoryFile(string relative)
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "IfiDashboard.sln"))) return Path.Combine(dir.FullName, relative);
        throw new InvalidOperationException("Repository root not found.");
    }

    [Fact]
    public async Task Cli_prints_a_connection_string_per_instance_that_sqlclient_can_use()
    {
        var simulator = Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Simulator.dll");
        var start = new ProcessStartInfo("dotnet", [simulator, "--scenario", RepositoryFile("scenarios/demo-fleet.json")])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        try
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            var lines = new List<string>();
            while (lines.Count < 50 && await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
                lines.Add(line);

            Assert.Equal(50, lines.Count);
            Assert.All(lines, l => Assert.Equal(2, l.Split('\t').Length));
            var (name, connectionString) = lines.Select(l => l.Split('\t')).Select(p => (p[0], p[1])).First(p => p.Item1 == "sql19-win-19");
            await using var connection = new SqlConnection(connectionString + ";Pooling=false");
            await connection.OpenAsync(timeout.Token);
            var version = await connection.ExecuteScalarAsync<string>("SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128))");
            Assert.Equal("15.0.4385.2", version);
            Assert.Equal("sql19-win-19", name);
        }
        finally
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
        }
    }

    [Fact]
    public async Task Cli_without_a_scenario_explains_its_usage_and_fails()
    {
        var simulator = Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Simulator.dll");
        using var process = Process.Start(new ProcessStartInfo("dotnet", [simulator]) { RedirectStandardError = true, RedirectStandardOutput = true })!;
        var error = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();

        Assert.Equal(2, process.ExitCode);
        Assert.Contains("--scenario", error, StringComparison.Ordinal);
    }
}
