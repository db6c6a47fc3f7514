using System.Text.RegularExpressions;

namespace IfiDashboard.Server.Tests.Deployment;

/// <summary>
/// The systemd units in deploy/systemd start the programs the projects publish, keep their state where the hardening
/// lets them write, and never turn on an option the .NET runtime cannot run under.
/// </summary>
public sealed partial class SystemdUnitTests
{
    static Dictionary<string, List<string>> Unit(string name)
    {
        var settings = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        foreach (var line in File.ReadAllLines(Path.Combine(RepositoryRoot.Path, "deploy", "systemd", name)))
        {
            if (line.StartsWith('#') || line.StartsWith('[') || !line.Contains('=')) continue;
            var at = line.IndexOf('=');
            var key = line[..at];
            if (!settings.TryGetValue(key, out var values)) settings[key] = values = [];
            values.Add(line[(at + 1)..]);
        }
        return settings;
    }

    static string AssemblyName(string project) =>
        AssemblyNameElement().Match(File.ReadAllText(Path.Combine(RepositoryRoot.Path, "src", project, project + ".csproj"))).Groups[1].Value;

    [GeneratedRegex("<AssemblyName>([^<]+)</AssemblyName>")]
    private static partial Regex AssemblyNameElement();

    [Theory]
    [InlineData("ifidashboard-server.service", "Server", "ifidashboard-server")]
    [InlineData("ifidashboard-collector.service", "Collector", "ifidashboard-collector")]
    public void Unit_starts_the_published_program_with_its_state_in_the_only_writable_path(string name, string project, string state)
    {
        var unit = Unit(name);

        Assert.Equal(["notify"], unit["Type"]);
        Assert.EndsWith("/" + AssemblyName(project), Assert.Single(unit["ExecStart"]), StringComparison.Ordinal);
        Assert.Equal([state], unit["StateDirectory"]);
        Assert.Equal(["strict"], unit["ProtectSystem"]);
        Assert.Equal(["/var/lib/" + state], unit["ReadWritePaths"]);
        Assert.Equal(["yes"], unit["NoNewPrivileges"]);
        Assert.False(unit.ContainsKey("MemoryDenyWriteExecute"), "the .NET JIT needs writable code pages");
        Assert.NotEqual("root", Assert.Single(unit["User"]));
        Assert.StartsWith("/etc/ifidashboard/", Assert.Single(unit["EnvironmentFile"]).TrimStart('-'), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("ifidashboard-server.service")]
    [InlineData("ifidashboard-collector.service")]
    public void Unit_keeps_the_hardening_docs_deployment_scores(string name)
    {
        // systemd-analyze security scores these units 1.3 with these settings and 3.2 without (docs/deployment.md).
        var unit = Unit(name);

        Assert.Equal(["@system-service"], unit["SystemCallFilter"]);
        Assert.Equal(["EPERM"], unit["SystemCallErrorNumber"]);
        Assert.Equal(["invisible"], unit["ProtectProc"]);
        Assert.Equal(["pid"], unit["ProcSubset"]);
        Assert.Equal(["yes"], unit["RemoveIPC"]);
        Assert.Equal(["yes"], unit["PrivateUsers"]);
        Assert.Equal(["yes"], unit["PrivateMounts"]);
    }

    [Fact]
    public void Collector_unit_keeps_its_outbox_in_its_state_directory()
    {
        var environment = Unit("ifidashboard-collector.service")["Environment"];

        Assert.Contains("Collector__Outbox__Directory=/var/lib/ifidashboard-collector/outbox", environment);
    }
}
