using System.Diagnostics;
using System.Text.Json;
using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Collector.Tests.Kerberos;

/// <summary>
/// The test KDC, and the simulator running as a child process with the service keytab (KRB5_KTNAME), as a SQL Server
/// service runs with its own: "kerberos" has its SPN registered, "no-spn" has none, and the SPN of "other-account" is
/// registered to another account than the one the simulator has the key of. All grant the Windows login IFI\collector. The collector runs as a child process too, with the Kerberos environment each test gives it.
/// </summary>
public sealed class KerberosFleet : IAsyncLifetime
{
    public const string CollectorPrincipal = "collector";
    public const string WindowsLogin = @"IFI\collector";
    static readonly TimeSpan ChildTimeout = TimeSpan.FromSeconds(90);

    Process? _simulator;

    public KerberosRealm Realm { get; private set; } = null!;
    public int KerberosPort { get; private set; }
    public int NoSpnPort { get; private set; }
    public int OtherAccountPort { get; private set; }
    public string CollectorKeytab => Realm.Keytab(CollectorPrincipal);

    public async Task InitializeAsync()
    {
        Realm = await KerberosRealm.StartAsync();
        await Realm.AddPrincipalAsync(CollectorPrincipal, CollectorKeytab);

        var scenario = Path.Combine(Realm.Directory, "scenario.json");
        await File.WriteAllTextAsync(scenario, JsonSerializer.Serialize(new
        {
            defaultLogins = new[] { new { name = WindowsLogin, permissions = new[] { "sysadmin" } } },
            instances = new[]
            {
                new { name = "kerberos", profile = "2019", ifiEnabled = true },
                new { name = "no-spn", profile = "2019", ifiEnabled = true },
                new { name = "other-account", profile = "2019", ifiEnabled = true },
            },
        }));
        var start = new ProcessStartInfo("dotnet", [Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Simulator.dll"), "--scenario", scenario])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        start.Environment["KRB5_CONFIG"] = Realm.ConfigFile;
        start.Environment["KRB5_KTNAME"] = $"FILE:{Realm.Keytab("sqlserver")}";
        _simulator = Process.Start(start) ?? throw new InvalidOperationException("The simulator did not start.");
        using var timeout = new CancellationTokenSource(ChildTimeout);
        var ports = new Dictionary<string, int>();
        while (ports.Count < 3 && await _simulator.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            var (name, connectionString) = (line.Split('\t')[0], line.Split('\t')[1]);
            ports[name] = new Microsoft.Data.SqlClient.SqlConnectionStringBuilder(connectionString).DataSource.Split(',') is [_, var port]
                ? int.Parse(port)
                : throw new InvalidOperationException($"No port in '{connectionString}'.");
        }
        KerberosPort = ports["kerberos"];
        NoSpnPort = ports["no-spn"];
        OtherAccountPort = ports["other-account"];
        // GSSAPI reads the keytab at each login, so the key may arrive after the simulator started.
        await Realm.AddPrincipalAsync(KerberosDiagnosis.ServicePrincipalName(At(KerberosPort)), Realm.Keytab("sqlserver"));
        await Realm.AddPrincipalAsync(KerberosDiagnosis.ServicePrincipalName(At(OtherAccountPort)), Realm.Keytab("another-service"));
    }

    public static InstanceRegistration At(int port) => new() { Name = "kerberos", Host = "127.0.0.1", Port = port };

    /// <summary>
    /// Runs the collector's `check` against the port with exactly this environment (Kerberos variables, and
    /// credentials as the collector's settings; KRB5_CONFIG is the realm's).
    /// </summary>
    public Task<CheckResult> CheckAsync(int port, IReadOnlyDictionary<string, string> environment, string? credential = null)
    {
        string[] arguments = ["--host", "127.0.0.1", "--port", port.ToString(), "--trust-server-certificate", "true", "--Collector:Name", "kerberos-test",
            // No credential named means the collector's own identity, which it uses only within Collector:AllowedNetworks.
            "--Collector:AllowedNetworks:0", LoopbackPorts.AllowListEntry,
            // A poll cut off under the test command's load is not what is tested.
            .. PatientCollector.Settings.SelectMany(s => new[] { "--" + s.Key, s.Value })];
        return CollectorCheck.RunAsync(credential is null ? arguments : [.. arguments, "--credential", credential],
            new Dictionary<string, string>(environment) { ["KRB5_CONFIG"] = Realm.ConfigFile });
    }

    public async Task DisposeAsync()
    {
        if (_simulator is { HasExited: false })
        {
            _simulator.Kill(entireProcessTree: true);
            await _simulator.WaitForExitAsync();
        }
        _simulator?.Dispose();
        await Realm.DisposeAsync();
    }
}
