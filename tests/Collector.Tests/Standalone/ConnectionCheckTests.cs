using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Standalone;

/// <summary>`IfiDashboard.Collector check`: one poll with the collector's own settings, printed for an operator.</summary>
public sealed class ConnectionCheckTests
{
    /// <summary>The test credential as the collector's environment variables.</summary>
    static Dictionary<string, string> CredentialEnvironment() =>
        ProberFactory.CredentialSettings().ToDictionary(s => s.Key.Replace(":", "__"), s => s.Value!);

    static Task<CheckResult> CheckWithCredentialAsync(int port, Dictionary<string, string> environment) => CollectorCheck.RunAsync(
        ["--host", "127.0.0.1", "--port", port.ToString(), "--trust-server-certificate", "true", "--credential", ProberFactory.CredentialName],
        environment);

    [Fact]
    public async Task Check_polls_with_the_collectors_sql_credential_and_prints_each_probe()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "sql", Profile = "2019", IfiEnabled = false });

        var result = await CheckWithCredentialAsync(fleet["sql"].Port, CredentialEnvironment());

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(("Ok", ""), result.Connect);
        Assert.Equal("Disabled", result.Ifi);
        Assert.DoesNotContain(ProberFactory.Password, result.Output + result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Check_refused_by_the_credentials_allow_list_says_so_and_fails()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "sql", Profile = "2019" });
        var environment = CredentialEnvironment();
        environment[$"Credentials__{ProberFactory.CredentialName}__AllowedHosts__0"] = "*.prod.bank.local";

        var result = await CheckWithCredentialAsync(fleet["sql"].Port, environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Equal("HostNotAllowed", result.Connect.Outcome);
        Assert.Empty(fleet["sql"].Transcript.Entries);
    }

    [Fact]
    public async Task Check_refuses_a_fifo_pinned_in_the_credentials_folder_without_opening_it()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "sql", Profile = "2019" });
        using var pins = new PinFolder();
        var environment = CredentialEnvironment();
        environment[$"Credentials__{ProberFactory.CredentialName}__CertificateFolder"] = pins.Folder;

        var result = await CollectorCheck.RunAsync(
            ["--host", "127.0.0.1", "--port", fleet["sql"].Port.ToString(), "--credential", ProberFactory.CredentialName,
             "--server-certificate", pins.Fifo()], environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Equal("InsecureTransportRefused", result.Connect.Outcome);
        Assert.Contains("is not a certificate file", result.Connect.Message, StringComparison.Ordinal);
        Assert.Empty(fleet["sql"].Transcript.Entries);
    }

    [Fact]
    public async Task Check_without_a_host_prints_its_usage()
    {
        var result = await CollectorCheck.RunAsync(["--port", "1433"], new Dictionary<string, string>());

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("usage: IfiDashboard.Collector check --host HOST", result.Error, StringComparison.Ordinal);
    }
}
