using Dapper;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The default trace records server local time. A collector that re-reads it after a restart, on the other side of a
/// daylight-saving change, converts every event an hour apart: through the real collector over TCP, each event must
/// still be stored once, keyed on the local time the trace holds.
/// </summary>
public sealed class GrowthEventIdentityTests
{
    // One event in each season on both sides of both transitions of 2026 (Berlin: 29 Mar and 25 Oct; New York:
    // 8 Mar and 1 Nov), and polls in winter, summer and winter again, each by a freshly started collector.
    static readonly DateTimeOffset[] EventsUtc =
    [
        new(2026, 3, 1, 12, 0, 0, TimeSpan.Zero), new(2026, 4, 15, 12, 0, 0, TimeSpan.Zero),
        new(2026, 10, 10, 12, 0, 0, TimeSpan.Zero), new(2026, 11, 15, 12, 0, 0, TimeSpan.Zero),
    ];

    static readonly DateTimeOffset[] PollsUtc =
    [
        new(2026, 3, 2, 12, 0, 0, TimeSpan.Zero), new(2026, 4, 16, 12, 0, 0, TimeSpan.Zero), new(2026, 11, 16, 12, 0, 0, TimeSpan.Zero),
    ];

    [Theory]
    [InlineData("Europe/Berlin")]
    [InlineData("America/New_York")]
    public async Task Events_reread_across_both_daylight_saving_changes_are_stored_once(string zone)
    {
        var clock = new FakeTimeProvider(PollsUtc[0]);
        await using var host = new DashboardHost(clock, new ScenarioInstance
        {
            Name = "dst", Profile = "2019", IfiEnabled = false, TimeZone = zone,
            Databases = [new ScenarioDatabase { Name = "Sales" }],
            GrowthEvents = [.. EventsUtc.Select(at => new ScenarioGrowthEvent
                { EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = at, DurationMicroseconds = 800_000 })],
        });
        await host.RegisterFleetAsync();
        var registration = (await host.Services.GetRequiredService<InstanceInventory>().ListActiveAsync(CancellationToken.None)).Single();

        foreach (var at in PollsUtc)
        {
            clock.SetUtcNow(at);
            // A collector restart: its growth watermark is in memory, so the whole trace is read again.
            var prober = ActivatorUtilities.CreateInstance<InstanceProber>(host.Services, new GrowthWatermarks());
            var snapshot = await prober.PollAsync(registration, CancellationToken.None);
            Assert.Equal(EventsUtc.Length, snapshot.GrowthEvents.Count);
            await host.Services.GetRequiredService<ISnapshotSink>().WriteAsync(snapshot, CancellationToken.None);
        }

        var connections = host.Services.GetRequiredService<IDbConnectionFactory>();
        await using var connection = await connections.OpenAsync(CancellationToken.None);
        var stored = (await connection.QueryAsync<string>("SELECT start_time_local FROM growth_events ORDER BY start_time_local;")).ToList();
        var timeZone = TimeZoneInfo.FindSystemTimeZoneById(zone);
        Assert.Equal(EventsUtc.Select(e => TimeZoneInfo.ConvertTime(e, timeZone).DateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff")), stored);
    }
}
