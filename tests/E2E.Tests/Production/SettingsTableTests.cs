using System.Text.RegularExpressions;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// Every setting in README's configuration table, given a value it cannot start with (not of its type, out of its
/// range, or with an inline <c># comment</c> as systemd's EnvironmentFile keeps it), stops the real server or the
/// standalone collector with exit code 1 and one line on standard error naming the setting, and no stack trace.
/// A setting added to the table without a row here fails <see cref="Every_setting_in_the_readme_table_has_a_case"/>.
/// The cases' processes run side by side (<see cref="SettingsTableProcesses"/>); each case reads its own process's end,
/// so a failure still names its setting.
/// </summary>
public sealed partial class SettingsTableTests(SettingsTableProcesses processes) : IClassFixture<SettingsTableProcesses>
{
    const string Comment = "   # as an EnvironmentFile keeps it";

    /// <summary>A SQL login the credential rows need, so that the collector reads the rest of the credential.</summary>
    static readonly string[] Login = ["--Credentials:fleet_reader:UserId=ifi_collector", "--Credentials:fleet_reader:Password=pw"];

    /// <param name="Setting">The setting as README's table names it.</param>
    /// <param name="Named">What the one line must name.</param>
    public sealed record Case(string Setting, string Named, string[] Arguments, bool Collector = false)
    {
        public override string ToString() => $"{(Collector ? "collector" : "server")} {string.Join(' ', Arguments)}";
    }

    static Case Bad(string setting, string value, params string[] more) => new(setting, setting, [$"--{setting}={value}", .. more]);

    static Case Placeholder(string setting, string key, string value, params string[] more) => new(setting, key, [$"--{key}={value}", .. more]);

    public static readonly Case[] Cases =
    [
        Bad("Urls", "http://127.0.0.1:5080" + Comment),
        Bad("Store:Provider", "MySql"),
        Bad("Store:ConnectionString", "Data Source=ifi.db" + Comment),
        Bad("Store:StartupWaitSeconds", "-1"),
        Bad("Collector:Enabled", "abc"),
        Bad("Collector:MaxConcurrency", "-1"),
        Bad("Collector:ConnectTimeoutSeconds", "-1"),
        Bad("Collector:CommandTimeoutSeconds", "abc"),
        Bad("Collector:PollDeadlineSeconds", "-1"),
        Bad("Collector:Name", "collector-paris" + Comment),
        Bad("Collector:LeaseSeconds", "-1"),
        Placeholder("Credentials:<name>:UserId", "Credentials:fleet_reader:UserId", "ifi_collector" + Comment),
        Placeholder("Credentials:<name>:Password", "Credentials:fleet_reader:Password", "pw" + Comment),
        Placeholder("Credentials:<name>:AllowedHosts:0..n", "Credentials:fleet_reader:AllowedHosts", "not a host!", Login) with
            { Arguments = ["--Credentials:fleet_reader:AllowedHosts:0=not a host!", .. Login] },
        Placeholder("Credentials:<name>:AllowTrustServerCertificate", "Credentials:fleet_reader:AllowTrustServerCertificate", "abc", Login),
        Placeholder("Credentials:<name>:CertificateNames:0..n", "Credentials:fleet_reader:CertificateNames", "", Login) with
            { Arguments = ["--Credentials:fleet_reader:CertificateNames:0=sql01.corp.example:1433", .. Login] },
        Placeholder("Credentials:<name>:CertificateFolder", "Credentials:fleet_reader:CertificateFolder", "certs", Login),
        Placeholder("Credentials:<name>:IntegratedSecurity", "Credentials:fleet_reader:IntegratedSecurity", "abc"),
        new("Collector:AllowedNetworks:0..n", "Collector:AllowedNetworks", ["--Collector:AllowedNetworks:0=not a host!"]),
        Placeholder("Ingestion:ApiKeys:<collector name>", "Ingestion:ApiKeys", "too-short") with
            { Arguments = ["--Ingestion:ApiKeys:paris=too-short"] },
        Bad("Ingestion:MaxClockSkew", "abc"),
        Bad("Ingestion:MaxLeasesPerCollector", "-1"),
        Bad("Ingestion:MaxLeaseSeconds", "-1"),
        Bad("Ingestion:TakeoverDelay", "-1"),
        Bad("Ingestion:TakeoverAlertThreshold", "-1"),
        Bad("Ingestion:MaxSnapshotBytes", "-1"),
        Bad("Ingestion:MaxRequestBytes", "abc"),
        Bad("TestConnection:PermitLimit", "-1"),
        Bad("TestConnection:WindowSeconds", "abc"),
        Bad("BulkRegistration:PermitLimit", "-1"),
        Bad("BulkRegistration:WindowSeconds", "-1"),
        Bad("VerifyNow:MaxInstances", "-1"),
        Bad("VerifyNow:PermitLimit", "abc"),
        Bad("VerifyNow:WindowSeconds", "-1"),
        Bad("Compliance:DefaultZeroingMBps", "abc"),
        Bad("Compliance:MountRoots:0..n", "") with { Named = "Compliance:MountRoots:0", Arguments = ["--Compliance:MountRoots:0=/data1" + Comment] },
        Bad("AllowedHosts", "ifi.corp.example" + Comment),
        Bad("Auth:Oidc:Authority", "not a url", "--Auth:Oidc:ClientId=ifi"),
        Bad("Auth:Oidc:ClientId", "ifi" + Comment),
        Bad("Auth:Oidc:ClientSecret", "secret" + Comment),
        Bad("Auth:Oidc:RoleClaim", "roles" + Comment),
        Bad("Auth:Oidc:NameClaim", "name" + Comment),
        Bad("Auth:Roles:Viewer", "") with { Named = "Auth:Roles:Viewer:0", Arguments = ["--Auth:Roles:Viewer:0=ifi-viewers" + Comment] },
        Bad("Auth:Roles:Operator", "") with { Named = "Auth:Roles:Operator:0", Arguments = ["--Auth:Roles:Operator:0=ifi-operators" + Comment] },
        Bad("Auth:Roles:Administrator", "") with { Named = "Auth:Roles:Administrator:0", Arguments = ["--Auth:Roles:Administrator:0=ifi-admins" + Comment] },
        Bad("Auth:Proxy:UserHeader", "X-Remote-User") with { Named = "Auth:Proxy:KnownProxies" },
        Bad("Auth:Proxy:RolesHeader", "X-Remote-Roles" + Comment),
        Bad("Auth:Proxy:KnownProxies:0..n", "") with { Named = "Auth:Proxy:KnownProxies", Arguments = ["--Auth:Proxy:UserHeader=X-Remote-User", "--Auth:Proxy:KnownProxies:0=proxy.corp.example"] },
        Bad("Auth:Proxy:KnownNetworks:0..n", "") with { Named = "Auth:Proxy:KnownNetworks", Arguments = ["--Auth:Proxy:UserHeader=X-Remote-User", "--Auth:Proxy:KnownNetworks:0=10.1.0.0/99"] },
        Bad("Auth:AllowAnonymousRead", "abc"),
        Bad("Auth:MaxWaiverDays", "-1"),
        Bad("DataProtection:KeysDirectory", "/var/lib/ifidashboard-server/keys" + Comment),
        Bad("DataProtection:CertificatePath", "no-such-certificate.pfx"),
        Bad("DataProtection:CertificatePassword", "pfx-password" + Comment),
        new("Alerts:...", "Alerts:Smtp:Host", ["--Alerts:Enabled=true"]),
        Bad("Reports:Evidence:SigningKeyPath", "evidence.pem" + Comment),
        Bad("Reports:Evidence:Monthly:To:0..n", "") with
            { Named = "Reports:Evidence:Monthly:To", Arguments = ["--Reports:Evidence:Monthly:To:0=auditor@example.test"] },
        Bad("Reports:Evidence:Monthly:Environment", "Production" + Comment),
        Bad("Reports:Evidence:Monthly:Tag", "pci" + Comment),
        Bad("OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel:4318" + Comment),
        Bad("Retention:PollDays", "-1"),
        Bad("Retention:GrowthEventDays", "abc"),
        Bad("Retention:AlertOutboxDays", "-1"),
        Bad("Retention:AuditDays", "-1"),
        Bad("Store:MaxSizeMegabytes", "-1"),
        new("Assignments:Rules:<n>:Match", "Assignments:Rules:0", ["--Assignments:Rules:0:Match=Planet", "--Assignments:Rules:0:Collectors:0=paris"]),
        new("Assignments:Rules:<n>:Values:<i>", "Assignments:Rules:0",
            ["--Assignments:Rules:0:Match=Network", "--Assignments:Rules:0:Values:0=not a network", "--Assignments:Rules:0:Collectors:0=paris"]),
        new("Assignments:Rules:<n>:Collectors:<i>", "Assignments:Rules:0", ["--Assignments:Rules:0:Match=All"]),
        Bad("Prometheus:AnonymousScrapeUrl", "not a url"),
        Bad("Logging:Console:FormatterName", "xml"),
        // The standalone collector: its own settings (README, below the table) and those it shares with the server.
        new("Collector:SecretsFile", "Collector:SecretsFile", ["--Collector:SecretsFile=no-such-secrets.json"], Collector: true),
        new("Collector:ServerUrl", "Collector:ServerUrl", ["--Collector:ServerUrl=https://ifi.corp.example/" + Comment], Collector: true),
        new("Collector:ApiKey", "Collector:ApiKey", ["--Collector:ApiKey="], Collector: true),
        new("Collector:MaxConcurrency", "Collector:MaxConcurrency", ["--Collector:MaxConcurrency=abc"], Collector: true),
        new("Collector:Outbox:MaxDeliveriesInFlight", "Collector:Outbox:MaxDeliveriesInFlight",
            ["--Collector:Outbox:MaxDeliveriesInFlight=-1"], Collector: true),
        new("Credentials:<name>:AllowedHosts:0..n", "Credentials:fleet_reader:AllowedHosts",
            ["--Credentials:fleet_reader:AllowedHosts:0=not a host!", .. Login], Collector: true),
    ];

    public static TheoryData<Case> All() => [.. Cases];

    [Theory]
    [MemberData(nameof(All))]
    public async Task A_value_it_cannot_start_with_stops_it_with_one_line_naming_the_setting(Case bad)
    {
        var (process, storeCreated) = await processes.StoppedAsync(bad);

        var errors = process.ErrorLines.Where(l => l.Length > 0).ToList();
        Assert.True(process.ExitCode == 1, $"exit code {process.ExitCode}:\n{process.Output}");
        Assert.True(errors.Count == 1, $"expected one line on standard error:\n{process.Output}");
        Assert.Contains(bad.Named, errors[0], StringComparison.OrdinalIgnoreCase); // configuration keys ignore case
        Assert.DoesNotContain("   at ", process.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("EnvironmentFile keeps it", errors[0], StringComparison.Ordinal);
        // Settings are checked before the store is created, migrated or waited for.
        Assert.False(storeCreated, $"the refused start created the SQLite store:\n{process.Output}");
    }

    [Fact]
    public void Every_setting_in_the_readme_table_has_a_case()
    {
        var covered = Cases.Select(c => c.Setting).ToHashSet(StringComparer.Ordinal);

        var settings = ReadmeSettings();

        Assert.True(settings.Count > 40, $"read only {settings.Count} settings from README's table");
        var missing = settings.Where(s => !covered.Contains(s)).ToList();
        Assert.True(missing.Count == 0, "README's settings without a case here: " + string.Join(", ", missing));
    }

    /// <summary>
    /// The settings of README's table: a row's first cell names them in backticks, and a name after the first
    /// (<c>`Collector:ConnectTimeoutSeconds` / `CommandTimeoutSeconds`</c>) is in the first one's section; an
    /// alternative spelling (<c>(or `--urls`)</c>) and a list suffix written apart (<c>`:0..n`</c>) add nothing.
    /// </summary>
    static List<string> ReadmeSettings()
    {
        var readme = File.ReadAllLines(Path.Combine(RepositoryRoot.Path, "README.md"));
        var table = readme.SkipWhile(l => !l.StartsWith("| setting |", StringComparison.Ordinal)).Skip(2)
            .TakeWhile(l => l.StartsWith('|'));
        var settings = new List<string>();
        foreach (var row in table)
        {
            var cell = AlternativeSpelling().Replace(row.Split('|')[1], "");
            var names = Backticked().Matches(cell).Select(m => m.Groups[1].Value).Where(n => !n.StartsWith(':')).ToList();
            var first = names[0];
            var bare = first.EndsWith(":0..n", StringComparison.Ordinal) ? first[..^":0..n".Length] : first;
            var section = bare.Contains(':') ? bare[..bare.LastIndexOf(':')] : "";
            settings.Add(first);
            settings.AddRange(names.Skip(1).Select(name => section + ":" + name));
        }
        return settings;
    }

    [GeneratedRegex(@"\(or `[^`]*`\)")]
    private static partial Regex AlternativeSpelling();

    [GeneratedRegex("`([^`]+)`")]
    private static partial Regex Backticked();
}

/// <summary>
/// Every case's process of <see cref="SettingsTableTests"/>, started when the class starts, four at a time in the table's
/// order, each in a working directory of its own (where a server would put its SQLite store).
/// </summary>
public sealed class SettingsTableProcesses : IAsyncLifetime
{
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-settings-").FullName;
    readonly StoppingProcesses _sideBySide = new(atOnce: 4);
    readonly Dictionary<string, Task<(StoppedProcess Process, bool StoreCreated)>> _stopped = new(StringComparer.Ordinal);

    public Task InitializeAsync()
    {
        foreach (var (bad, index) in SettingsTableTests.Cases.Select((c, i) => (c, i)))
        {
            var directory = Directory.CreateDirectory(Path.Combine(_directory, $"case-{index:00}")).FullName;
            _stopped.Add(bad.ToString(), RunAsync(bad, directory));
        }
        return Task.CompletedTask;
    }

    /// <summary>The case's process once it stopped, and whether it left a SQLite store (data/ifidashboard.db by default).</summary>
    public Task<(StoppedProcess Process, bool StoreCreated)> StoppedAsync(SettingsTableTests.Case bad) => _stopped[bad.ToString()];

    async Task<(StoppedProcess, bool)> RunAsync(SettingsTableTests.Case bad, string directory)
    {
        var stopped = await _sideBySide.RunAsync(() => bad.Collector
            ? StartCollector(directory, bad.Arguments)
            : StartServer(directory, bad.Arguments));
        return (stopped, Directory.Exists(Path.Combine(directory, "data")));
    }

    static ServerProcess StartServer(string directory, string[] arguments) =>
        ServerProcess.Start(ServerProcess.BuildOutput, directory, ["--urls", $"http://127.0.0.1:{LoopbackPorts.Unassigned()}", .. arguments]);

    static ServerProcess StartCollector(string directory, string[] arguments)
    {
        // The collector's own appsettings.json, in a content root of its own (the test output's is the server's).
        var root = Path.Combine(directory, "collector");
        Directory.CreateDirectory(root);
        File.Copy(Path.Combine(RepositoryRoot.Path, "src", "Collector", "appsettings.json"), Path.Combine(root, "appsettings.json"), overwrite: true);
        return ServerProcess.StartProgram(Path.Combine(AppContext.BaseDirectory, "IfiDashboard.Collector.dll"), directory,
            new Dictionary<string, string> { ["DOTNET_ENVIRONMENT"] = "Production" },
            ["--contentRoot", root, "--Collector:ServerUrl=http://127.0.0.1:9/", "--Collector:ApiKey=settings-table-test-key",
             $"--Collector:Outbox:Directory={Path.Combine(directory, "outbox")}", .. arguments]);
    }

    public async Task DisposeAsync()
    {
        // No process outlives the class, whatever its case found.
        await Task.WhenAll(_stopped.Values.Cast<Task>()).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}
