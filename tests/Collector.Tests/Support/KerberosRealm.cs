using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Collector.Tests.Support;

/// <summary>
/// A real MIT Kerberos KDC (Debian's krb5-kdc, installed by scripts/install-test-dependencies.sh) on a free loopback
/// port, with a realm of its own in a temporary folder: its krb5.conf and kdc.conf, its database (kdb5_util), its
/// principals and keytabs (kadmin.local). Programs that use it get KRB5_CONFIG and the rest through their environment,
/// as GSSAPI reads them from the process environment: the tests run the simulator and the collector as child
/// processes for that reason.
/// </summary>
public sealed class KerberosRealm : IAsyncDisposable
{
    public const string Realm = "IFI.TEST";
    static readonly TimeSpan CommandTimeout = TimeSpan.FromSeconds(60);

    readonly Process _kdc;

    KerberosRealm(string directory, int port, Process kdc)
    {
        Directory = directory;
        Port = port;
        _kdc = kdc;
    }

    public string Directory { get; }
    public int Port { get; }
    public string ConfigFile => Path.Combine(Directory, "krb5.conf");
    string KdcProfile => Path.Combine(Directory, "kdc.conf");
    /// <summary>What the KDC logs: each ticket it issues or refuses, with the client and the service principal.</summary>
    public string LogFile => Path.Combine(Directory, "kdc.log");

    public static async Task<KerberosRealm> StartAsync()
    {
        var directory = System.IO.Directory.CreateTempSubdirectory("ifi-kdc-").FullName;
        var port = LoopbackPorts.Unassigned();
        // TCP only (udp_preference_limit = 1): one port to find free, and no datagram lost in a busy test run.
        await File.WriteAllTextAsync(Path.Combine(directory, "krb5.conf"), $"""
            [libdefaults]
                default_realm = {Realm}
                dns_lookup_kdc = false
                dns_lookup_realm = false
                rdns = false
                udp_preference_limit = 1
            [realms]
                {Realm} = {"{"}
                    kdc = 127.0.0.1:{port}
                {"}"}
            """);
        await File.WriteAllTextAsync(Path.Combine(directory, "kdc.conf"), $"""
            [realms]
                {Realm} = {"{"}
                    database_name = {directory}/principal
                    key_stash_file = {directory}/stash
                    kdc_listen = 127.0.0.1:{port}
                    kdc_tcp_listen = 127.0.0.1:{port}
                    max_life = 1h
                {"}"}
            [logging]
                kdc = FILE:{directory}/kdc.log
            """);
        var environment = RealmEnvironment(directory);
        await RunAsync(Tool("kdb5_util"), ["create", "-s", "-r", Realm, "-P", Convert.ToHexString(RandomNumberGenerator.GetBytes(16))], environment);

        var start = new ProcessStartInfo(Tool("krb5kdc"), ["-n"]) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var (name, value) in environment) start.Environment[name] = value;
        var kdc = Process.Start(start) ?? throw new InvalidOperationException("krb5kdc did not start.");
        var realm = new KerberosRealm(directory, port, kdc);
        try
        {
            await realm.WaitUntilAnsweringAsync();
            return realm;
        }
        catch
        {
            await realm.DisposeAsync();
            throw;
        }
    }

    /// <summary>Creates a principal with a random key and writes its key to the keytab (created or appended to).</summary>
    public async Task AddPrincipalAsync(string principal, string keytab)
    {
        await KadminAsync($"addprinc -randkey {principal}");
        await KadminAsync($"ktadd -k {keytab} {principal}");
    }

    /// <summary>kinit from a keytab into a ticket cache of its own; returns the cache's name for KRB5CCNAME.</summary>
    public async Task<string> TicketCacheAsync(string principal, string keytab, string? lifetime = null)
    {
        var cache = $"FILE:{Path.Combine(Directory, $"cc-{Guid.NewGuid():N}")}";
        string[] arguments = lifetime is null ? ["-k", "-t", keytab, "-c", cache, principal] : ["-l", lifetime, "-k", "-t", keytab, "-c", cache, principal];
        await RunAsync(Tool("kinit"), arguments, RealmEnvironment(Directory));
        return cache;
    }

    /// <summary>Whether the cache holds a ticket that has not expired (klist -s), as GSSAPI judges it.</summary>
    public async Task<bool> HasValidTicketAsync(string cache) =>
        await RunAsync(Tool("klist"), ["-s", "-c", cache], RealmEnvironment(Directory), throwOnFailure: false) == 0;

    public string Keytab(string name) => Path.Combine(Directory, name + ".keytab");

    public async ValueTask DisposeAsync()
    {
        if (!_kdc.HasExited)
        {
            _kdc.Kill(entireProcessTree: true);
            await _kdc.WaitForExitAsync();
        }
        _kdc.Dispose();
        System.IO.Directory.Delete(Directory, recursive: true);
    }

    static Dictionary<string, string> RealmEnvironment(string directory) => new()
    {
        ["KRB5_CONFIG"] = Path.Combine(directory, "krb5.conf"),
        ["KRB5_KDC_PROFILE"] = Path.Combine(directory, "kdc.conf"),
    };

    Task KadminAsync(string query) => RunAsync(Tool("kadmin.local"), ["-q", query], RealmEnvironment(Directory));

    /// <summary>Until the KDC accepts connections on its port; a KDC that exits is reported with what it said.</summary>
    async Task WaitUntilAnsweringAsync()
    {
        using var timeout = new CancellationTokenSource(CommandTimeout);
        while (true)
        {
            if (_kdc.HasExited)
                throw new InvalidOperationException($"krb5kdc exited with {_kdc.ExitCode}: {await _kdc.StandardError.ReadToEndAsync()}");
            using var probe = new TcpClient();
            try
            {
                await probe.ConnectAsync(IPAddress.Loopback, Port, timeout.Token);
                return;
            }
            catch (SocketException)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(50), timeout.Token);
            }
        }
    }

    /// <summary>The MIT tools live in /usr/sbin, which is not on every account's PATH.</summary>
    static string Tool(string name) =>
        new[] { "/usr/sbin", "/usr/bin" }.Select(d => Path.Combine(d, name)).FirstOrDefault(File.Exists)
        ?? throw new InvalidOperationException($"{name} is missing: run scripts/install-test-dependencies.sh (krb5-kdc, krb5-admin-server, krb5-user).");

    static async Task<int> RunAsync(string file, string[] arguments, Dictionary<string, string> environment, bool throwOnFailure = true)
    {
        var start = new ProcessStartInfo(file, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var (name, value) in environment) start.Environment[name] = value;
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{file} did not start.");
        using var timeout = new CancellationTokenSource(CommandTimeout);
        var output = process.StandardOutput.ReadToEndAsync(timeout.Token);
        var error = process.StandardError.ReadToEndAsync(timeout.Token);
        await process.WaitForExitAsync(timeout.Token);
        if (throwOnFailure && process.ExitCode != 0)
            throw new InvalidOperationException($"{Path.GetFileName(file)} {string.Join(' ', arguments)} exited with {process.ExitCode}: {await output}{await error}");
        return process.ExitCode;
    }

}
