using System.Text.Json;
using Dapper;
using IfiDashboard.Client.Pages.Detail;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Retention;
using IfiDashboard.Server.Store;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using static IfiDashboard.Server.Tests.Store.Retention.HistorySnapshots;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>Retention as the server registers it: the background service, ingestion's horizon, the pages' reads.</summary>
[Trait(TestDatabase.PostgresPassTrait, TestDatabase.PostgresPassValue)]
public sealed class RetentionWiringTests
{
    static readonly CancellationToken None = CancellationToken.None;

    [Fact]
    public async Task Registered_retention_runs_in_the_background_and_ingestion_skips_events_past_the_horizon()
    {
        await using var host = await RetentionHost.StartAsync();
        var id = await host.Get<InstanceInventory>().AddAsync(TestData.Registration("SQL01"), None);
        host.Clock.SetUtcNow(Day(500));

        await host.Get<SnapshotStore>().WriteAsync(
            TestData.Good(id, Day(500)).WithGrowth(Growth(Day(99)), Growth(Day(100)), Growth(Day(499))), None);

        Assert.Contains(host.Services.GetServices<IHostedService>(), s => s is RetentionService);
        await using var connection = await host.Get<IDbConnectionFactory>().OpenAsync(None);
        var starts = await connection.QueryAsync<string>("SELECT start_time FROM growth_events ORDER BY start_time;");
        // 400 days before day 500 is day 100: the event of day 99 is past the horizon.
        Assert.Equal([StoreTime.ToText(Day(100)), StoreTime.ToText(Day(499))], starts);
    }

    [Fact]
    public async Task Instance_page_reads_the_same_after_pruning()
    {
        await using var host = await RetentionHost.StartAsync();
        var id = await host.Get<InstanceInventory>().AddAsync(TestData.Registration("SQL01"), None);
        var sink = host.Get<SnapshotStore>();
        var restarted = Day(5).AddHours(-1);
        await sink.WriteAsync(TestData.Good(id, Day(0), ifi: "Y").WithFiles(), None);
        for (var day = 1; day < 200; day++)
        {
            var poll = day < 5 ? TestData.Good(id, Day(day), ifi: "Y") : TestData.Good(id, Day(day), ifi: "N", engineStarted: restarted);
            if (day is 10 or 150) poll = poll.WithGrowth(Growth(Day(day).AddHours(-1)));
            await sink.WriteAsync(poll, None);
        }
        host.Clock.SetUtcNow(Day(200));
        var details = host.Get<IInstanceDetails>();
        var before = await details.GetAsync(id, GrowthWindow.Quarter, None);

        var report = await host.Get<RetentionPruner>().PruneOnceAsync(None);
        await host.Get<FleetAssessments>().RecomputeAsync(None);
        var after = await details.GetAsync(id, GrowthWindow.Quarter, None);

        Assert.True(report.Polls > 100, $"pruned {report.Polls} polls");
        Assert.NotNull(before);
        Assert.NotEmpty(before.Timeline);
        Assert.Single(before.Growth.Events);
        Assert.Equal(2, before.Services.Count);
        Assert.Equal(20, before.Polls.Count);
        Assert.Equal(JsonSerializer.Serialize(before), JsonSerializer.Serialize(after));
    }

    [Fact]
    public async Task Background_service_waits_for_its_first_pass_and_does_not_run_when_disabled()
    {
        await using var enabled = await RetentionHost.StartAsync();
        await using var disabled = await RetentionHost.StartAsync(new Dictionary<string, string?> { ["Retention:Enabled"] = "false" });
        var running = enabled.Services.GetServices<IHostedService>().OfType<RetentionService>().Single();
        var off = disabled.Services.GetServices<IHostedService>().OfType<RetentionService>().Single();

        await running.StartAsync(None);
        await off.StartAsync(None);

        // Disabled: ExecuteAsync ends by itself (on a pool thread). Enabled: it waits a minute for its first pass.
        await off.ExecuteTask!.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.False(running.ExecuteTask!.IsCompleted);
        await running.StopAsync(None);
        // Stopped cleanly: ran to completion, or Canceled when the stop came before the pool thread started it
        // (BackgroundService starts ExecuteAsync with Task.Run on the stopping token); never Faulted.
        Assert.True(running.ExecuteTask.IsCompleted && !running.ExecuteTask.IsFaulted, $"{running.ExecuteTask.Status}: {running.ExecuteTask.Exception}");
    }
}
