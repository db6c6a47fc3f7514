using System.Collections.Concurrent;
using System.Diagnostics;
using Dapper;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;
using Xunit.Abstractions;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>The fleet simulator at the size of a large estate: two thousand instances, each its own listener.</summary>
public sealed class LargeFleetTests(ITestOutputHelper output)
{
    private const int InstanceCount = 2000;
    // SqlClient opens unpooled connections asynchronously through one queue per processor for the whole process and
    // fails an open that waited there longer than its Connect Timeout ("too many simultaneous non-pooled connection
    // attempts": seen under load with 32 at once on two cores). So no more logins at once than the queue runs, and the
    // timeout a generous safety net: the test is about every instance answering, not how fast.
    private static readonly int Parallelism = Environment.ProcessorCount;

    [Fact]
    public async Task Two_thousand_instances_start_and_every_one_accepts_a_sqlclient_login()
    {
        var clock = Stopwatch.StartNew();
        await using var fleet = TestFleet.Start([.. Enumerable.Range(0, InstanceCount).Select(i => new ScenarioInstance
        {
            Name = $"sql{i:D4}",
            Profile = VersionProfiles.All[i % VersionProfiles.All.Count].Name,
            IfiEnabled = i % 2 == 0,
        })]);
        var started = clock.Elapsed;
        var versions = new ConcurrentDictionary<string, string>();

        await Parallel.ForEachAsync(fleet.Instances, new ParallelOptions { MaxDegreeOfParallelism = Parallelism },
            async (instance, _) =>
            {
                await using var connection = await TestFleet.OpenAsync(instance, extra: "Pooling=false;Connect Timeout=120");
                versions[instance.Name] = await connection.QuerySingleAsync<string>(
                    "SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS v");
            });

        // The elapsed time is printed for whoever reads the log, not asserted: under the test command's five parallel
        // jobs on two cores it varies threefold, and timings belong in docs/benchmarks.md, not in a unit test.
        output.WriteLine($"{InstanceCount} instances started in {started.TotalSeconds:F1} s, all logged in after {clock.Elapsed.TotalSeconds:F1} s");
        Assert.Equal(InstanceCount, fleet.Instances.Select(i => i.Port).Distinct().Count());
        Assert.Equal(InstanceCount, versions.Count);
        Assert.All(fleet.Instances, instance =>
        {
            Assert.Single(instance.Transcript.TextsOf(TranscriptKinds.Login));
            Assert.Equal(instance.Profile.ProductVersion, versions[instance.Name]);
        });
    }
}
