using System.Diagnostics;
using IfiDashboard.E2E.Tests.Production;

namespace IfiDashboard.E2E.Tests.SignIn;

/// <summary>
/// The oidc-provider package (tests/OidcProvider, installed by scripts/install-test-dependencies.sh) running on a free
/// loopback port, with a client for the dashboard at <c>dashboardUrl</c> and the accounts viewer, operator, admin,
/// nobody and the namesakes sam-a and sam-b (two operators named Sam Taylor). It exits when its standard input closes, so it never outlives the test run.
/// </summary>
public sealed class OidcProviderProcess : IDisposable
{
    public const string ClientId = "ifi-dashboard";
    public const string ClientSecret = "oidc-test-client-secret-0123456789";

    readonly Process _process;

    OidcProviderProcess(Process process, string issuer)
    {
        _process = process;
        Issuer = issuer;
    }

    public string Issuer { get; }

    public static async Task<OidcProviderProcess> StartAsync(string dashboardUrl)
    {
        var folder = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(ServerProcess.Project)!, "..", "..", "tests", "OidcProvider"));
        if (!Directory.Exists(Path.Combine(folder, "node_modules", "oidc-provider")))
            throw new InvalidOperationException($"oidc-provider is not installed in {folder}: run scripts/install-test-dependencies.sh");
        var start = new ProcessStartInfo("node", ["provider.mjs", dashboardUrl])
        {
            WorkingDirectory = folder,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        var process = Process.Start(start) ?? throw new InvalidOperationException("node did not start");
        process.ErrorDataReceived += (_, _) => { }; // its warnings about development defaults, read so the pipe never fills
        process.BeginErrorReadLine();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
            if (line.StartsWith("issuer ", StringComparison.Ordinal))
                return new OidcProviderProcess(process, line["issuer ".Length..]);
        process.Kill();
        throw new InvalidOperationException("The OpenID Connect provider exited before it listened.");
    }

    /// <summary>Renames an account at the provider: its subject stays, the next sign-in's <c>name</c> claim changes.</summary>
    public async Task RenameAsync(string account, string name)
    {
        using var http = new HttpClient();
        var response = await http.GetAsync($"{Issuer}/test/rename?account={Uri.EscapeDataString(account)}&name={Uri.EscapeDataString(name)}");
        response.EnsureSuccessStatusCode();
    }

    public void Dispose()
    {
        _process.StandardInput.Close();
        if (!_process.WaitForExit(5000)) _process.Kill();
        _process.Dispose();
    }
}
