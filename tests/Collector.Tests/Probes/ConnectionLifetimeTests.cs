using System.Diagnostics.Tracing;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Tests.Probes;

/// <summary>SqlClient's connection pools are process-wide: nothing else may open a connection while this class counts them.</summary>
[CollectionDefinition(nameof(SqlClientPoolCount), DisableParallelization = true)]
public sealed class SqlClientPoolCount;

[Collection(nameof(SqlClientPoolCount))]
public sealed class ConnectionLifetimeTests
{
    /// <summary>
    /// Every instance has a connection string of its own. A pooled connection leaves its pool behind after the poll,
    /// cleared but kept by SqlClient until its pruning timer releases it minutes later: at 10,000 instances, 10,000
    /// pools with their wait handles in the collector's memory.
    /// </summary>
    [Fact]
    public async Task Polls_of_many_instances_leave_no_connection_pool_behind()
    {
        var instances = Enumerable.Range(1, 6).Select(i => new ScenarioInstance { Name = $"pool{i}", Profile = "2019", IfiEnabled = true });
        await using var fleet = Fleets.Start([.. instances]);
        // Creates SqlClient's event source (first used here when this test runs alone), so the listener finds it.
        SqlConnection.ClearAllPools();
        using var counters = new SqlClientPoolCounters();
        var before = await counters.PoolsAsync();

        var prober = ProberFactory.Create(ProberFactory.PatientOptions());
        foreach (var instance in fleet.Instances)
        {
            var snapshot = await prober.PollAsync(ProberFactory.Registration(instance), CancellationToken.None);
            Assert.Equal(IfiState.Enabled, IfiObservation.From(snapshot).State);
        }

        var after = await counters.PoolsAsync();
        Assert.True(after <= before, $"SqlClient holds {after} connection pools after {fleet.Instances.Count} polls, {before} before them");
    }

    /// <summary>Reads SqlClient's own event counters of active and inactive (cleared, awaiting release) connection pools.</summary>
    sealed class SqlClientPoolCounters : EventListener
    {
        const string SourceName = "Microsoft.Data.SqlClient.EventSource";
        static readonly string[] PoolCounters = ["number-of-active-connection-pools", "number-of-inactive-connection-pools"];
        readonly object _gate = new();
        readonly Dictionary<string, (double Value, int Sequence)> _latest = [];
        readonly SemaphoreSlim _reported = new(0);
        int _sequence;

        protected override void OnEventSourceCreated(EventSource source)
        {
            // Counters only: the level keeps SqlClient's trace events (Informational) off, the counters are LogAlways.
            if (source.Name == SourceName)
                EnableEvents(source, EventLevel.Critical, (EventKeywords)(1L << 40),
                    new Dictionary<string, string?> { ["EventCounterIntervalSec"] = "1" });
        }

        protected override void OnEventWritten(EventWrittenEventArgs e)
        {
            if (e.EventName != "EventCounters" || e.Payload is not [IDictionary<string, object> counter, ..]) return;
            if (counter.TryGetValue("Name", out var name) && name is string n && PoolCounters.Contains(n)
                && counter.TryGetValue("Mean", out var mean) && mean is double value)
            {
                lock (_gate) _latest[n] = (value, ++_sequence);
                _reported.Release();
            }
        }

        /// <summary>Active plus inactive pools, as reported after this call: each counter's next report.</summary>
        public async Task<double> PoolsAsync()
        {
            int from;
            lock (_gate) from = _sequence;
            // SqlClient reports once a second; the 90-s limit is only a safety net.
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(90));
            while (true)
            {
                lock (_gate)
                {
                    if (PoolCounters.All(c => _latest.TryGetValue(c, out var v) && v.Sequence > from))
                        return PoolCounters.Sum(c => _latest[c].Value);
                }
                await _reported.WaitAsync(timeout.Token);
            }
        }
    }
}
