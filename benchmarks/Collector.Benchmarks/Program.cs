using System.Diagnostics;
using IfiDashboard.Collector.Benchmarks;

// Collector throughput against a bare SqlClient + Dapper loop doing the same queries (docs/benchmarks.md).
if (BenchmarkStartup.ParseOrExplain(args, BenchmarkOptions.Parse, BenchmarkOptions.Usage) is not { } options) return 2;

var loadBefore = Machine.LoadAverage();
Console.WriteLine($"# Collector benchmark: {options.Instances} instances, concurrency {options.Concurrency}, simulator {options.Simulator}");
Console.WriteLine($"machine: {Machine.Describe()}; load average {loadBefore}");

var started = Stopwatch.GetTimestamp();
await using var fleet = await FleetHost.StartAsync(BenchmarkFleet.Create(options.Instances, options.Seed), options.Simulator);
Console.WriteLine($"fleet of {fleet.Ports.Count} started in {Stopwatch.GetElapsedTime(started).TotalSeconds:F1} s");

var setup = new BenchmarkSetup(options.Concurrency, fleet.Ports, options.AnonymousParameters);
// The collector raises the thread pool's minimum when it starts (CollectorService.ReserveThreads); doing the same
// here first means the bare loop, which runs first, does not pay for the pool's slow growth alone.
ThreadPool.GetMinThreads(out var workers, out var io);
ThreadPool.SetMinThreads(Math.Max(workers, options.Concurrency * 2 + Environment.ProcessorCount), io);

var duration = options.Seconds > 0 ? TimeSpan.FromSeconds(options.Seconds) : (TimeSpan?)null;
var measured = new PollPlan(setup.Instances, duration);

if (options.WarmupPolls != 0)
{
    var warmup = new PollPlan([.. setup.Instances.Take(options.WarmupPolls < 0 ? setup.Instances.Count : options.WarmupPolls)], null);
    Report.Phases("Warm-up (not counted)", [await BareLoop.RunAsync(warmup, setup, fleet), await CollectorLoop.RunAsync(warmup, setup, fleet)]);
}

var bare = new List<PhaseResult>();
var collector = new List<PhaseResult>();
var phases = new List<PhaseResult>();
for (var pair = 0; pair < options.Pairs; pair++)
{
    // B C, then C B (B C C B ...): a steady drift of the machine's load during the run falls on both loops alike,
    // and neither loop always runs first after the warm-up.
    foreach (var bareFirst in pair % 2 == 0 ? new[] { true, false } : [false, true])
    {
        await Settle();
        var result = bareFirst ? await BareLoop.RunAsync(measured, setup, fleet) : await CollectorLoop.RunAsync(measured, setup, fleet);
        (bareFirst ? bare : collector).Add(result);
        phases.Add(result);
    }
}
Report.Phases("Measured phases", phases);

if (options.Breakdown)
{
    using var timings = new SqlTimings();
    using var jit = new JitCounter();
    var timed = new List<PhaseResult>();
    async Task Timed(Func<Task<PhaseResult>> run)
    {
        await Settle();
        jit.Start();
        timed.Add(await run());
        Report.Jit(timed[^1], jit.Stop());
    }
    await Timed(() => BareLoop.RunAsync(measured, setup, fleet, timings));
    await Timed(() => CollectorLoop.RunAsync(measured, setup, fleet, timings));
    // Connect + TLS + login alone: its CPU per poll against the full bare poll's splits handshake from queries.
    await Timed(() => BareLoop.RunAsync(measured, setup, fleet, timings, openOnly: true));
    Report.Phases("Breakdown phases (diagnostics on, not in the summary)", timed);
    Report.Breakdown(timed);
}

if (fleet.SimulatorComplaints > 0)
    Console.WriteLine($"WARNING: the simulator logged {fleet.SimulatorComplaints} unknown statements; the loops did not run the same work.");
Report.Summary(options, new LoopSummary(bare), new LoopSummary(collector), loadBefore, Machine.LoadAverage());
return 0;

// Between phases: let cancelled polls of a timed phase finish and start each phase from a collected heap.
static async Task Settle()
{
    await Task.Delay(TimeSpan.FromSeconds(1));
    GC.Collect();
    GC.WaitForPendingFinalizers();
    GC.Collect();
}
