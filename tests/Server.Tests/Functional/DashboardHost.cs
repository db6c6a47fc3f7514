using IfiDashboard.Shared.Security;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Server.Security;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Tests.Alerts;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Server.Tests.Store;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Tests.Support;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The real server (store in a temporary SQLite file, embedded collector, pages) next to a simulated fleet on
/// loopback. The background scheduler is off: tests drive one round of polls with <see cref="PollAllAsync"/>.
/// </summary>
public sealed class DashboardHost : WebApplicationFactory<Program>
{
    public const string Login = "ifi_collector";
    public const string Password = "Funct10nal-Pw";
    /// <summary>The configured key of the collector named <see cref="RemoteCollector"/>.</summary>
    public const string ApiKey = "test-collector-key-0123456789";
    public const string RemoteCollector = "remote-collector";

    /// <summary>Collectors with a configured key of their own besides <see cref="RemoteCollector"/> (<see cref="KeyOf"/>).</summary>
    static readonly string[] OtherCollectors = ["other-collector", "busy-collector", "process-collector", "first", "second"];

    /// <summary>The configured key of a collector: each key belongs to one collector.</summary>
    public static string KeyOf(string collector) =>
        collector == RemoteCollector ? ApiKey
        : OtherCollectors.Contains(collector) ? $"test-collector-key-{collector}-0123456789"
        : throw new ArgumentException($"No key is configured for the collector '{collector}'.", nameof(collector));

    readonly string _directory = Directory.CreateTempSubdirectory("ifi-functional-").FullName;
    TestDatabase? _database;

    public DashboardHost(params ScenarioInstance[] instances) : this((TimeProvider?)null, instances)
    {
    }

    /// <param name="simulatorClock">What the simulated servers' clocks read; the system clock when null.</param>
    public DashboardHost(TimeProvider? simulatorClock, params ScenarioInstance[] instances)
    {
        Fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = Login, Password = Password }],
            Instances = [.. instances],
        }, _ => { }, simulatorClock);
    }

    /// <param name="availabilityGroups">Availability groups whose replicas are among <paramref name="instances"/>.</param>
    public DashboardHost(IReadOnlyList<ScenarioAvailabilityGroup> availabilityGroups, params ScenarioInstance[] instances)
    {
        Fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = Login, Password = Password }],
            Instances = [.. instances],
            AvailabilityGroups = [.. availabilityGroups],
        }, _ => { });
    }

    public FleetSimulator Fleet { get; }

    /// <summary>The folder the credential <c>fleet</c> reads pinned certificates from (<c>Credentials:fleet:CertificateFolder</c>).</summary>
    public string CertificateFolder => Directory.CreateDirectory(Path.Combine(_directory, "certificates")).FullName;

    /// <summary>The store this server writes to (SQLite file or PostgreSQL database), once the server has started.</summary>
    public TestDatabase Store => _database ?? throw new InvalidOperationException("The server has not started yet.");
    /// <summary>More settings for the server, given before it starts.</summary>
    public Dictionary<string, string?> Settings { get; } = [];
    /// <summary>False: people sign in as the settings say (proxy, none), not through the test scheme.</summary>
    public bool UseTestSignIn { get; init; } = true;
    internal CapturedLogs Logs { get; } = new();
    /// <summary>
    /// The connection string the server is given for its store, from the store's own: unchanged unless a test routes
    /// the server through something that can fail on the network, such as a <see cref="SwitchableRelay"/>.
    /// </summary>
    public Func<string, string> StoreConnectionAsGiven { get; init; } = connectionString => connectionString;

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        _database ??= TestDatabase.Create($"Data Source={Path.Combine(_directory, "store.db")}", migrated: true);
        builder.UseSetting("Store:Provider", _database.Provider);
        builder.UseSetting("Store:ConnectionString", StoreConnectionAsGiven(_database.ConnectionString));
        builder.UseSetting("Collector:Enabled", "false");
        // Four-eyes is on by default; these tests grant waivers that count at once, as before it was, unless one sets it.
        builder.UseSetting("Auth:WaiversNeedApproval", "false");
        builder.UseSetting("Collector:Name", "functional-tests");
        // No instance here is meant to time out.
        foreach (var (key, value) in PatientCollector.Settings) builder.UseSetting(key, value);
        builder.UseSetting("Credentials:fleet:UserId", Login);
        builder.UseSetting("Credentials:fleet:Password", Password);
        // The simulated fleet listens on loopback with a self-signed certificate.
        builder.UseSetting("Credentials:fleet:AllowedHosts:0", LoopbackPorts.AllowListEntry);
        builder.UseSetting("Credentials:fleet:CertificateFolder", CertificateFolder);
        builder.UseSetting("Credentials:fleet:AllowTrustServerCertificate", "true");
        builder.UseSetting($"Ingestion:ApiKeys:{RemoteCollector}", ApiKey);
        foreach (var collector in OtherCollectors)
            builder.UseSetting($"Ingestion:ApiKeys:{collector}", KeyOf(collector));
        foreach (var (key, value) in Settings) builder.UseSetting(key, value);
        if (UseTestSignIn) builder.ConfigureTestServices(TestSignIn.Register);
        builder.ConfigureLogging(logging => logging.AddProvider(Logs));
    }

    /// <summary>Clients sign in as an Administrator unless a test names another role (<see cref="TestSignIn.AsRole"/>).</summary>
    protected override void ConfigureClient(HttpClient client)
    {
        base.ConfigureClient(client);
        TestSignIn.AsRole(client, DashboardRoles.Administrator);
    }

    /// <summary>A client signed in as an administrator (<see cref="TestSignIn"/>).</summary>
    /// <summary>
    /// Starts the server on a real loopback socket on a port the system picks at bind time, and returns it: a port
    /// picked earlier and bound later can be taken by another test process in between.
    /// </summary>
    public int StartOnFreePort()
    {
        UseKestrel(0);
        StartServer();
        var address = Services.GetRequiredService<Microsoft.AspNetCore.Hosting.Server.IServer>().Features
            .Get<Microsoft.AspNetCore.Hosting.Server.Features.IServerAddressesFeature>()!.Addresses.First();
        return new Uri(address).Port;
    }

    public HttpClient AdministratorClient() => TestSignIn.As(CreateClient(), "admin@bank.test", DashboardRoles.Administrator);

    /// <summary>Registers every simulated instance as an operator would: by host, port and credential name.</summary>
    public Task RegisterFleetAsync() => SimulatedFleetRegistration.RegisterAsync(Services, Fleet);

    public long IdOf(string name) => SimulatedFleetRegistration.IdOf(Services, name);

    public Task<int> PollAllAsync() =>
        Services.GetRequiredService<CollectorService>().PollDueOnceAsync(CancellationToken.None);

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        await Fleet.DisposeAsync();
        _database?.Dispose();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}

/// <summary>
/// One <see cref="DashboardHost"/> without simulated instances for every test of a class that asks for it (xUnit's class
/// fixture): for tests whose data do not meet, or that store nothing.
/// </summary>
public sealed class SharedDashboardHost : IAsyncLifetime
{
    public DashboardHost Host { get; } = new();

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await Host.DisposeAsync();
}

/// <summary>
/// One <see cref="DashboardHost"/> with one registered and polled instance (IFI off) for every test of a class, the
/// assessment and the changes journal caught up, so that no background write lands in the middle of a test.
/// </summary>
public sealed class SharedPolledInstance : IAsyncLifetime
{
    const string Name = "polled-1";

    public DashboardHost Host { get; } = new(new ScenarioInstance { Name = Name, Profile = "2019", IfiEnabled = false });
    public long InstanceId { get; private set; }

    public async Task InitializeAsync()
    {
        await Host.RegisterFleetAsync();
        await Host.PollAllAsync();
        InstanceId = Host.IdOf(Name);
        await Host.Services.GetRequiredService<IfiDashboard.Server.Compliance.FleetAssessments>().RecomputeAsync(CancellationToken.None);
        await Host.Services.GetRequiredService<IfiDashboard.Server.Api.Changes.ChangeRecorder>().CatchUpAsync(CancellationToken.None);
    }

    public async Task DisposeAsync() => await Host.DisposeAsync();
}
