using System.Net;
using System.Net.Sockets;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Server.Demo;
using IfiDashboard.Server.Security;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.E2E.Tests;

/// <summary>
/// The real server on a real port (Kestrel), with a temporary SQLite store and the demo fleet simulated in-process,
/// registered by the server's own demo host. The background collector is off: one round of polls is driven here, so
/// the pages show every demo instance polled when the browser opens them.
/// </summary>
public sealed class DemoDashboard : WebApplicationFactory<Program>
{
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-e2e-").FullName;
    readonly Scenario _scenario = DemoMode.LoadScenario(DateTimeOffset.UtcNow);

    public DemoDashboard()
    {
        Port = LoopbackPorts.Unassigned();
        UseKestrel(Port);
    }

    public int Port { get; }
    public string BaseUrl => $"http://127.0.0.1:{Port}/";
    public int InstanceCount => _scenario.Instances.Count;


    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        var login = _scenario.DefaultLogins[0];
        builder.UseSetting("Store:ConnectionString", $"Data Source={Path.Combine(_directory, "store.db")}");
        builder.UseSetting("Collector:Enabled", "false");
        builder.UseSetting("Collector:Name", "e2e-tests");
        // The demo fleet has an instance that hangs in pre-login: a short connect timeout ends it in seconds. The
        // command timeout and the poll's deadline are the product's, so that no healthy poll is cut off under load.
        builder.UseSetting("Collector:ConnectTimeoutSeconds", "5");
        foreach (var (key, value) in DemoMode.CredentialSettings(login)) builder.UseSetting(key, value);
        // As DemoMode.Configure does: in the demo a waiver counts at once (four-eyes is on by default elsewhere).
        builder.UseSetting("Auth:WaiversNeedApproval", "false");
        builder.ConfigureServices(services =>
        {
            services.AddSingleton(_scenario);
            services.AddHostedService<DemoFleetHost>();
            DemoAuthenticationHandler.SignEveryoneIn(services.AddAuthentication());
        });
    }

    /// <summary>Starts Kestrel, lets the demo host register the fleet, polls every instance once and assesses.</summary>
    public async Task StartAsync()
    {
        StartServer();
        var collector = Services.GetRequiredService<CollectorService>();
        var deadline = DateTime.UtcNow.AddSeconds(60);
        var polled = 0;
        while (polled < InstanceCount && DateTime.UtcNow < deadline)
            polled += await collector.PollDueOnceAsync(CancellationToken.None);
        await AssessAsync();
    }

    /// <summary>The simulated instance behind a registered name: what a poll of it will find.</summary>
    public ScenarioInstance Simulated(string name) => _scenario.Instances.Single(i => i.Name == name);

    /// <summary>
    /// Polls one instance now and stores the snapshot through the server's own sink, as the embedded collector does:
    /// the server then assesses the fleet anew by itself and tells open pages.
    /// </summary>
    public async Task PollLandsAsync(InstanceRegistration instance)
    {
        var snapshot = await Services.GetRequiredService<InstanceProber>().PollAsync(instance, CancellationToken.None);
        await Services.GetRequiredService<ISnapshotSink>().WriteAsync(snapshot, CancellationToken.None);
    }

    public Task AssessAsync() => Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}
