using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Collector.Tests.Standalone;

/// <summary>
/// The collector's Windows build, run: the win-x64 self-contained build under Wine checks the same simulated instances
/// as the Linux build, and every probe's outcome, the IFI state and the exit code are the same. Messages are not
/// compared: socket errors are worded by each platform. Run alone with <c>--filter Platform=Wine</c>.
/// Certificate refusals are left out on purpose: Wine's TLS layer accepts a certificate that Windows and Linux refuse,
/// so under Wine a refusal would not happen and the difference would be Wine's, not the collector's. Those cases are
/// covered on Linux (Credentials/CertificateBindingTests); here the certificate is trusted, as the check tests do.
/// </summary>
[Trait("Platform", "Wine")]
public sealed class WindowsBuildUnderWineTests(WineCollector wine) : IClassFixture<WineCollector>
{
    static Dictionary<string, string> CredentialEnvironment(string password = ProberFactory.Password) =>
        ProberFactory.CredentialSettings(password).ToDictionary(s => s.Key.Replace(":", "__"), s => s.Value!);

    static string[] Arguments(int port) =>
        ["--host", "127.0.0.1", "--port", port.ToString(), "--trust-server-certificate", "true", "--credential", ProberFactory.CredentialName];

    /// <summary>What must be equal across platforms: the exit code, each probe and its outcome, the IFI state.</summary>
    static string Outcomes(CheckResult result) => string.Join("\n",
        [$"exit {result.ExitCode}", .. result.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(l => l.TrimEnd('\r'))
            // The probe and IFI lines, tab-separated; not advice or log lines.
            .Where(l => l.Contains('\t', StringComparison.Ordinal) && !l.StartsWith(' '))
            .Select(l => string.Join('\t', l.Split('\t').Take(2)))]);

    [Fact]
    public async Task Windows_build_under_wine_reports_the_same_outcomes_as_the_linux_build()
    {
        await using var fleet = Fleets.Start(
            new ScenarioInstance { Name = "ifi-on", Profile = "2019", IfiEnabled = true },
            new ScenarioInstance { Name = "ifi-off", Profile = "2022", IfiEnabled = false },
            new ScenarioInstance { Name = "tf1806", Profile = "2019", IfiEnabled = true, GlobalTraceFlags = [1806] });
        var notAllowed = CredentialEnvironment();
        notAllowed[$"Credentials__{ProberFactory.CredentialName}__AllowedHosts__0"] = "*.prod.bank.local";
        var cases = new (string Name, string[] Arguments, Dictionary<string, string> Environment)[]
        {
            ("IFI on", Arguments(fleet["ifi-on"].Port), CredentialEnvironment()),
            ("IFI off", Arguments(fleet["ifi-off"].Port), CredentialEnvironment()),
            ("IFI on, undone by trace flag 1806", Arguments(fleet["tf1806"].Port), CredentialEnvironment()),
            ("wrong password", Arguments(fleet["ifi-on"].Port), CredentialEnvironment("not-the-password")),
            ("unreachable port", Arguments(LoopbackPorts.Unassigned()), CredentialEnvironment()),
            ("host outside the credential's allow-list", Arguments(fleet["ifi-on"].Port), notAllowed),
        };

        foreach (var (name, arguments, environment) in cases)
        {
            var linux = await CollectorCheck.RunAsync(arguments, environment);
            var windows = await wine.CheckAsync(arguments, environment);

            Assert.True(Outcomes(linux) == Outcomes(windows), $"{name}:\nLinux {linux}\nWine {windows}");
            Assert.DoesNotContain(ProberFactory.Password, windows.Output + windows.Error, StringComparison.Ordinal);
        }

        // The cases are what they say on Linux, so that equal outcomes mean something.
        Assert.Equal("Enabled", (await CollectorCheck.RunAsync(cases[0].Arguments, cases[0].Environment)).Ifi);
        Assert.Equal("Disabled", (await CollectorCheck.RunAsync(cases[1].Arguments, cases[1].Environment)).Ifi);
    }
}
