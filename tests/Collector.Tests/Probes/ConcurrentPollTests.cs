using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Probes;

public sealed class ConcurrentPollTests
{
    [Fact]
    public async Task Forty_instances_polled_at_once_next_to_dead_ones_all_answer()
    {
        var healthy = Enumerable.Range(1, 40).Select(i => new ScenarioInstance { Name = $"ok{i}", Profile = "2019", IfiEnabled = true });
        var dead = new[]
        {
            new ScenarioInstance { Name = "refused", Profile = "2019", Faults = new() { RefuseConnections = true } },
            new ScenarioInstance { Name = "hangs", Profile = "2019", Faults = new() { HangInPreLogin = true } },
        };
        await using var fleet = Fleets.Start([.. dead, .. healthy]);
        // Healthy polls must all finish under load, so the command and poll limits are the patient ones; only the
        // connect timeout is shortened, which is what ends the pre-login hang.
        var options = ProberFactory.PatientOptions();
        options.ConnectTimeoutSeconds = 15;
        options.MaxConcurrency = 32;
        CollectorService.ReserveThreads(options.MaxConcurrency);
        var prober = ProberFactory.Create(options);

        using var slots = new SemaphoreSlim(options.MaxConcurrency);
        var snapshots = await Task.WhenAll(fleet.Instances.Select(async instance =>
        {
            await slots.WaitAsync();
            try { return (instance.Name, Snapshot: await prober.PollAsync(ProberFactory.Registration(instance), CancellationToken.None)); }
            finally { slots.Release(); }
        }));

        var failed = snapshots.Where(s => s.Name.StartsWith("ok", StringComparison.Ordinal) && IfiObservation.From(s.Snapshot).State != IfiState.Enabled)
            .Select(s => $"{s.Name}: {s.Snapshot.Overall}").ToList();
        Assert.True(failed.Count == 0, string.Join("\n", failed));
    }
}
