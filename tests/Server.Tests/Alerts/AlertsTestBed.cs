using IfiDashboard.Server.Tests.Store;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// What outlives one server process: the simulated fleet, the store's directory and the clock. A test starts a
/// server over it, and can stop it and start another over the same store (a restart).
/// </summary>
internal sealed class AlertsTestBed : IAsyncDisposable
{
    public const string Login = "ifi_collector";
    public const string Password = "Alerts-Fleet-Pw1";

    AlertsTestBed(IReadOnlyList<ScenarioAvailabilityGroup> groups, ScenarioInstance[] instances)
    {
        Fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = Login, Password = Password }],
            Instances = [.. instances],
            AvailabilityGroups = [.. groups],
        }, _ => { });
    }

    public FleetSimulator Fleet { get; }
    public string StoreDirectory { get; } = Directory.CreateTempSubdirectory("ifi-alerts-").FullName;

    TestDatabase? _database;

    /// <summary>One store for every server the test starts over this bed, so a restart finds what the last one left.</summary>
    public TestDatabase Database => _database ??= TestDatabase.Create($"Data Source={Path.Combine(StoreDirectory, "store.db")}", migrated: true);

    /// <summary>Starts at the real time of day, so the simulator's own timestamps and the store agree.</summary>
    public FakeTimeProvider Clock { get; } = new(DateTimeOffset.UtcNow);

    public static AlertsTestBed Create(params ScenarioInstance[] instances) => new([], instances);

    /// <summary>A fleet whose instances host the replicas of <paramref name="groups"/> (a failover is <c>Fleet.Failover</c>).</summary>
    public static AlertsTestBed Create(IReadOnlyList<ScenarioAvailabilityGroup> groups, params ScenarioInstance[] instances) => new(groups, instances);

    public AlertsHost StartHost(SmtpSink smtp, Action<Dictionary<string, string?>>? configure = null)
    {
        var settings = AlertsHost.DefaultSettings(smtp);
        configure?.Invoke(settings);
        var host = new AlertsHost(this, settings);
        // Building the server runs the migrations and starts the background services.
        _ = host.Services;
        return host;
    }

    public async ValueTask DisposeAsync()
    {
        await Fleet.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        _database?.Dispose();
        try { Directory.Delete(StoreDirectory, recursive: true); } catch (IOException) { }
    }
}
