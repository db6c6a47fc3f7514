using System.Diagnostics;

namespace IfiDashboard.Server.Tests.Deployment;

/// <summary>
/// docker-compose.yml checked by Debian's docker-compose itself (no Docker engine runs here, but `config`
/// parses, validates and interpolates the file as `up` would).
/// </summary>
public sealed class ComposeFileTests
{
    const string StorePassword = "st0re-pw-for-the-compose-test";

    static async Task<(int ExitCode, string Output)> ComposeConfigAsync(string? apiKey, string? storePassword = StorePassword)
    {
        var start = new ProcessStartInfo("docker-compose", "-f docker-compose.yml config")
        {
            WorkingDirectory = RepositoryRoot.Path,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        start.Environment.Remove("IFI_COLLECTOR_API_KEY");
        start.Environment.Remove("IFI_STORE_PASSWORD");
        if (apiKey is not null) start.Environment["IFI_COLLECTOR_API_KEY"] = apiKey;
        if (storePassword is not null) start.Environment["IFI_STORE_PASSWORD"] = storePassword;
        Process process;
        try
        {
            process = Process.Start(start)!;
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new InvalidOperationException("docker-compose is not installed: run scripts/install-test-dependencies.sh (./test.sh does).", e);
        }
        using (process)
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            var stdout = process.StandardOutput.ReadToEndAsync(timeout.Token);
            var stderr = process.StandardError.ReadToEndAsync(timeout.Token);
            await process.WaitForExitAsync(timeout.Token);
            return (process.ExitCode, await stdout + await stderr);
        }
    }

    [Fact]
    public async Task Compose_file_defines_postgres_server_and_collector_with_the_store_on_a_volume()
    {
        var (exitCode, output) = await ComposeConfigAsync("k3y-for-the-compose-test");

        Assert.True(exitCode == 0, output);
        Assert.Contains("dockerfile: src/Server/Dockerfile", output, StringComparison.Ordinal);
        Assert.Contains("dockerfile: src/Collector/Dockerfile", output, StringComparison.Ordinal);
        Assert.Contains("store:/var/lib/postgresql/data", output, StringComparison.Ordinal);
        Assert.Contains("Store__Provider: Postgres", output, StringComparison.Ordinal);
        Assert.Contains($"Password={StorePassword}", output, StringComparison.Ordinal); // interpolated, not committed
        Assert.Contains("condition: service_healthy", output, StringComparison.Ordinal);
        Assert.Contains("Collector__ServerUrl: http://server:5080/", output, StringComparison.Ordinal);
        Assert.True(File.Exists(System.IO.Path.Combine(RepositoryRoot.Path, "src/Server/Dockerfile")));
        Assert.True(File.Exists(System.IO.Path.Combine(RepositoryRoot.Path, "src/Collector/Dockerfile")));
    }

    [Fact]
    public async Task Compose_refuses_to_start_without_a_collector_key()
    {
        var (exitCode, output) = await ComposeConfigAsync(apiKey: null);

        Assert.NotEqual(0, exitCode);
        Assert.Contains("IFI_COLLECTOR_API_KEY", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compose_refuses_to_start_without_a_store_password()
    {
        var (exitCode, output) = await ComposeConfigAsync("k3y-for-the-compose-test", storePassword: null);

        Assert.NotEqual(0, exitCode);
        Assert.Contains("IFI_STORE_PASSWORD", output, StringComparison.Ordinal);
    }
}
