using System.Diagnostics;
using System.Text.RegularExpressions;

namespace IfiDashboard.Server.Tests.Deployment;

/// <summary>
/// docker-compose.yml checked by Debian's docker-compose itself (no Docker engine runs here, but `config`
/// parses, validates and interpolates the file as `up` would).
/// </summary>
public sealed partial class ComposeFileTests
{
    const string StorePassword = "st0re-pw-for-the-compose-test";

    static readonly string[] SignInVariables = ["IFI_OIDC_AUTHORITY", "IFI_OIDC_CLIENT_ID", "IFI_OIDC_CLIENT_SECRET", "IFI_ADMIN_ROLE"];

    /// <summary>
    /// The file as configured with every variable set, which four tests read: one docker-compose process (each takes a
    /// second or more of processor time) rather than one per test. Same file, same variables: the same output.
    /// </summary>
    static readonly Lazy<Task<(int ExitCode, string Output)>> Configured = new(() => ComposeConfigAsync("k3y-for-the-compose-test"));

    static async Task<(int ExitCode, string Output)> ComposeConfigAsync(string? apiKey, string? storePassword = StorePassword, bool signIn = true)
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
        foreach (var name in SignInVariables)
        {
            start.Environment.Remove(name);
            if (signIn) start.Environment[name] = $"value-of-{name}";
        }
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
        var (exitCode, output) = await Configured.Value;

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
    public async Task Collector_keeps_its_outbox_on_a_volume_its_non_root_user_owns()
    {
        var (exitCode, output) = await Configured.Value;
        var dockerfile = await File.ReadAllLinesAsync(System.IO.Path.Combine(RepositoryRoot.Path, "src/Collector/Dockerfile"));

        Assert.True(exitCode == 0, output);
        Assert.Contains("- collector-outbox:/var/lib/ifidashboard-collector", output, StringComparison.Ordinal);
        var declared = output[output.LastIndexOf("\nvolumes:", StringComparison.Ordinal)..];
        Assert.Contains("\n  collector-outbox:", declared, StringComparison.Ordinal);
        Assert.Contains("ENV Collector__Outbox__Directory=/var/lib/ifidashboard-collector/outbox", dockerfile);
        var chown = Array.FindIndex(dockerfile, l => l.Contains("chown -R app:app /var/lib/ifidashboard-collector", StringComparison.Ordinal));
        var user = Array.FindIndex(dockerfile, l => l.Trim() == "USER app");
        Assert.True(chown >= 0 && user > chown, "the outbox folder is given to the non-root user before the image switches to it");
    }

    [Fact]
    public async Task Every_environment_variable_can_be_exported_from_a_shell()
    {
        var (exitCode, output) = await Configured.Value;

        Assert.True(exitCode == 0, output);
        var names = EnvironmentNames(output);
        Assert.Contains("Collector__ApiKey", names);
        Assert.Contains("Store__ConnectionString", names);
        Assert.All(names, name => Assert.Matches(ShellIdentifier(), name));
    }

    /// <summary>The keys of every service's <c>environment:</c> mapping in <c>docker-compose config</c>'s output.</summary>
    static List<string> EnvironmentNames(string output)
    {
        var names = new List<string>();
        int? environmentIndent = null;
        foreach (var line in output.Split('\n'))
        {
            var indent = line.Length - line.TrimStart().Length;
            if (environmentIndent is { } outer && indent > outer && line.Contains(':'))
            {
                names.Add(line.Trim().Split(':')[0]);
                continue;
            }
            environmentIndent = line.Trim() == "environment:" ? indent : null;
        }
        return names;
    }

    [GeneratedRegex("^[A-Za-z_][A-Za-z0-9_]*$")]
    private static partial Regex ShellIdentifier();

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

    // Issue 30: the compose file started a server nobody could sign in to, and its key ring died with the container.
    [Fact]
    public async Task Compose_refuses_to_start_without_sign_in_and_keeps_the_key_ring_on_a_volume()
    {
        var (refused, refusal) = await ComposeConfigAsync("k3y-for-the-compose-test", signIn: false);
        var (exitCode, output) = await Configured.Value;

        Assert.NotEqual(0, refused);
        Assert.Contains("IFI_OIDC_", refusal, StringComparison.Ordinal);
        Assert.True(exitCode == 0, output);
        Assert.Contains("Auth__Oidc__Authority: value-of-IFI_OIDC_AUTHORITY", output, StringComparison.Ordinal);
        Assert.Contains("Auth__Roles__Administrator__0: value-of-IFI_ADMIN_ROLE", output, StringComparison.Ordinal);
        Assert.Contains("DataProtection__KeysDirectory: /data/keys", output, StringComparison.Ordinal);
        Assert.Contains("- server-keys:/data", output, StringComparison.Ordinal);
    }
}
