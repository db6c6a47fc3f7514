using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using Dapper;
using IfiDashboard.Collector.Standalone;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Ingestion alone, without polling: <c>--ingest-clients N</c> clients each act as a standalone collector with a key of
/// its own, through the collector's own <see cref="CollectorApiClient"/>: lease due instances (1,000 at a time) and
/// deliver a next poll of each instance (<see cref="SnapshotPlan.Next"/>: the instance's facts and up to three new
/// growth events) to <c>POST /api/v1/collector/snapshots</c>, with its next poll time, which completes the lease
/// (<see cref="InstanceSnapshot.NextPollAt"/>); <c>--ingest-separate-completion</c> completes each lease with a request
/// of its own instead (32 at once, as the collector's poll slots do), as collectors did before. A collector's outbox delivers one snapshot at a time, oldest first;
/// <c>--ingest-concurrency</c> sends more at once to find what the server and store take when the senders are not
/// the limit. Runs on a copy of the seeded store, so the store stays as seeded for the page runs.
/// </summary>
internal sealed class IngestionReplay(BenchmarkOptions options, Report report, BenchmarkStore seeded, StoreFacts facts)
{
    const int LeaseBatch = 1000;
    const int CompletionSlots = 32;

    TimeSpan Warmup => TimeSpan.FromSeconds(options.IngestWarmupSeconds);

    public async Task RunAsync()
    {
        var load = Machine.LoadAverage();
        var copyClock = Stopwatch.StartNew();
        var store = await seeded.CopyAsync("ingest");
        Console.WriteLine($"copied the store to {store.Description} in {copyClock.Elapsed.TotalSeconds:F0} s");
        // The seeded fleet, or its block when it was copied (a copy's number, past the block, maps back to the original).
        var seededInstances = options.SeedBlock > 0 ? options.SeedBlock : options.Instances;
        var fleet = SyntheticFleet.Create(seededInstances, (int)((long)options.Events * seededInstances / options.Instances), options.Seed,
            DateTimeOffset.UtcNow, options.Days).ToArray();
        var clients = CollectorKeys.Create("replay", options.IngestClients);
        var environment = CollectorKeys.ServerEnvironment(options, clients);
        var workingDirectory = Directory.CreateTempSubdirectory("ifi-dashboard-bench-").FullName;
        var log = store.LogPath("ingest-server");
        using var http = new HttpClient { Timeout = TimeSpan.FromMinutes(10) };
        await using var server = await ServerProcess.StartAsync(RepositoryLayout.ServerDll(options.Configuration), workingDirectory, log,
            new Dictionary<string, string>(store.ServerSettings) { ["Collector:Enabled"] = "false" }, environment, http, TimeSpan.FromMinutes(2));
        Console.WriteLine($"server pid {server.Pid} at {server.Address} (log: {log})");
        // The first assessment is built before the replay starts, so the replay measures ingestion, not start-up.
        var (first, _) = await new PageTimer(http, server.Address).GetAsync("/", Markers.Overview);
        var (settled, _) = await ProcessCpu.UntilQuietAsync(server.Pid, TimeSpan.FromMinutes(10));
        Console.WriteLine($"first assessment after {first.TotalSeconds:F1} s, server quiet {settled.TotalSeconds:F0} s later");
        var pollsBefore = await StoredPollsAsync(store);
        var postgres = await store.ServerProcessIdAsync();

        // The server's fixed cost (timed reassessments of the fleet, lease sweeps) over as long as the replay runs, with
        // no client: the replay's CPU less this, per snapshot, is what a snapshot adds (the marginal cost).
        var idleSeconds = Warmup.TotalSeconds + options.IngestSeconds;
        var idleServerCpu = ProcessCpu.Milliseconds(server.Pid);
        var idleStoreCpu = postgres is { } idlePostmaster ? ProcessCpu.TreeMilliseconds(idlePostmaster) : 0;
        var idleClock = Stopwatch.StartNew();
        await Task.Delay(TimeSpan.FromSeconds(idleSeconds));
        var idleMs = idleClock.Elapsed.TotalMilliseconds;
        idleServerCpu = ProcessCpu.Milliseconds(server.Pid) - idleServerCpu;
        idleStoreCpu = postgres is { } idlePid ? ProcessCpu.TreeMilliseconds(idlePid) - idleStoreCpu : 0;
        Console.WriteLine($"no replay for {idleMs / 1000:F0} s: server {idleServerCpu:F0} ms, PostgreSQL {idleStoreCpu:F0} ms of CPU");

        var run = new Run(Warmup + TimeSpan.FromSeconds(options.IngestSeconds));
        load = Machine.LoadAverage();
        var serverCpu = ProcessCpu.Milliseconds(server.Pid);
        var storeCpu = postgres is { } postmaster ? ProcessCpu.TreeMilliseconds(postmaster) : 0;
        var ownCpu = Process.GetCurrentProcess().TotalProcessorTime.TotalMilliseconds;
        // The same counters once the warm-up is over: the snapshot path (JSON contract, Npgsql's writers, the store's
        // statements) runs for the first time when the replay starts, and the tiered compiler spends the first seconds
        // compiling it, a cost a server ingesting for hours pays once. Read from the counters and the clients' own
        // tally, not the store, so that measuring adds nothing to what is measured.
        var steady = Task.Run(async () =>
        {
            await Task.Delay(Warmup);
            return (Server: ProcessCpu.Milliseconds(server.Pid), Store: postgres is { } at ? ProcessCpu.TreeMilliseconds(at) : 0,
                Delivered: run.Delivered.Count, Clock: run.Clock.Elapsed);
        });
        await Task.WhenAll(clients.Select(c => ClientAsync(server.Address, c.Name, c.Key, fleet, run)));
        var elapsedMs = run.Clock.Elapsed.TotalMilliseconds;
        var serverCpuNow = ProcessCpu.Milliseconds(server.Pid);
        var storeCpuNow = postgres is { } pid ? ProcessCpu.TreeMilliseconds(pid) : 0;
        serverCpu = serverCpuNow - serverCpu;
        storeCpu = postgres is not null ? storeCpuNow - storeCpu : 0;
        ownCpu = Process.GetCurrentProcess().TotalProcessorTime.TotalMilliseconds - ownCpu;
        var pollsAfter = await StoredPollsAsync(store);

        var measured = run.Delivered.Count(t => t >= Warmup && t < Warmup + TimeSpan.FromSeconds(options.IngestSeconds));
        var rate = measured / (double)options.IngestSeconds;
        var latencies = new Latencies("snapshot", run.DeliveryMs.ToList(), 0);
        var shape = $"{options.IngestClients} clients, {options.IngestConcurrency} snapshot{(options.IngestConcurrency == 1 ? "" : "s")} in flight each";
        Console.WriteLine($"{shape}: {rate:F0} snapshots/s over {options.IngestSeconds} s after a {Warmup.TotalSeconds:F0}-s warm-up; " +
                          $"delivery p50 {latencies.P50:F1} ms, p95 {latencies.P95:F1} ms; {run.Busy} answered 503; " +
                          $"{pollsAfter - pollsBefore} polls stored, {run.Delivered.Count} delivered");
        report.Add($"ingestion, {shape} ({facts.Instances} instances on {store.Kind})",
            $"{rate:F0} snapshots/s (p50 {latencies.P50:F1} ms · p95 {latencies.P95:F1} ms per snapshot; {run.Busy} × 503; " +
            $"{pollsAfter - pollsBefore} stored for {run.Delivered.Count} delivered{(run.RanDry ? "; no instance left due" : "")})",
            Report.Verdict(rate >= 1000, "≥ 1,000/s"), load);
        report.Add($"CPU over the {elapsedMs / 1000:F0} s (cores: 2)",
            $"server {serverCpu / elapsedMs:F2} · PostgreSQL {storeCpu / elapsedMs:F2} · clients {ownCpu / elapsedMs:F2} cores",
            "—", Machine.LoadAverage());
        var stored = Math.Max(1, pollsAfter - pollsBefore);
        var serverFixed = idleServerCpu / idleMs * elapsedMs;
        var storeFixed = idleStoreCpu / idleMs * elapsedMs;
        Console.WriteLine($"CPU per stored snapshot: server {serverCpu / stored:F2} ms measured, {(serverCpu - serverFixed) / stored:F2} ms marginal; " +
                          $"PostgreSQL {storeCpu / stored:F2} ms measured, {(storeCpu - storeFixed) / stored:F2} ms marginal");
        report.Add($"CPU per stored snapshot over the whole replay, warm-up included, measured (marginal: less the same time with no replay, server {idleServerCpu / idleMs:F3} · PostgreSQL {idleStoreCpu / idleMs:F3} cores)",
            $"server {serverCpu / stored:F2} ms ({(serverCpu - serverFixed) / stored:F2}) · PostgreSQL {storeCpu / stored:F2} ms ({(storeCpu - storeFixed) / stored:F2})",
            "—", Machine.LoadAverage());
        // Only when the replay outlasted its warm-up: a run that ran dry before it has no steady part.
        if (steady.IsCompletedSuccessfully && (await steady) is var mark && pollsAfter - pollsBefore - mark.Delivered is > 0 and var steadyStored)
        {
            var steadyMs = elapsedMs - mark.Clock.TotalMilliseconds;
            var steadyServer = serverCpuNow - mark.Server;
            var steadyStore = storeCpuNow - mark.Store;
            Console.WriteLine($"CPU per snapshot after the {Warmup.TotalSeconds:F0}-s warm-up ({steadyStored} snapshots in {steadyMs / 1000:F0} s): " +
                              $"server {steadyServer / steadyStored:F2} ms, PostgreSQL {steadyStore / steadyStored:F2} ms");
            report.Add($"CPU per stored snapshot after the {Warmup.TotalSeconds:F0}-s warm-up ({steadyStored} snapshots), measured (marginal)",
                $"server {steadyServer / steadyStored:F2} ms ({(steadyServer - idleServerCpu / idleMs * steadyMs) / steadyStored:F2}) · " +
                $"PostgreSQL {steadyStore / steadyStored:F2} ms ({(steadyStore - idleStoreCpu / idleMs * steadyMs) / steadyStored:F2})",
                Report.Verdict(steadyServer / steadyStored <= 1 && steadyStore / steadyStored <= 1, "≤ 1 ms each"), Machine.LoadAverage());
        }
        var memory = server.Memory();
        report.Add("server RSS after the replay", $"{memory.RssMb:F0} MB now · {memory.PeakRssMb:F0} MB peak",
            Report.Verdict(memory.PeakRssMb <= 1024, "≤ 1 GB"), Machine.LoadAverage());
        try { Directory.Delete(workingDirectory, recursive: true); } catch (IOException) { }
    }

    /// <summary>One collector: lease, complete (poll slots), deliver (the outbox), until the time is up.</summary>
    async Task ClientAsync(Uri address, string name, string key, IReadOnlyList<SyntheticInstance> fleet, Run run)
    {
        using var http = new HttpClient { BaseAddress = address, Timeout = TimeSpan.FromSeconds(30) };
        http.DefaultRequestHeaders.Add("X-Api-Key", key);
        var api = new CollectorApiClient(http);
        var random = new Random(HashCode.Combine(options.Seed, name));
        using var completionSlots = new SemaphoreSlim(CompletionSlots);
        var completions = new List<Task>();
        while (!run.Over)
        {
            // The previous batch's leases end before the next are asked for (Ingestion:MaxLeasesPerCollector is 1,000).
            await Task.WhenAll(completions);
            completions.Clear();
            var leased = await SendAgainWhileBusyAsync(() => api.LeaseDueAsync(name, LeaseBatch, TimeSpan.FromMinutes(5), CancellationToken.None), run);
            if (leased.Count == 0)
            {
                run.RanDry = true;
                break;
            }
            if (options.IngestSeparateCompletion)
                completions.AddRange(leased.Select(instance => CompleteAsync(api, name, instance, completionSlots, run)));
            var snapshots = leased.Select(instance => SnapshotPlan.Next(fleet[Number(instance.Name) % fleet.Count], instance.Id,
                DateTimeOffset.UtcNow.AddSeconds(-1), random) with
                {
                    CollectorName = name,
                    NextPollAt = options.IngestSeparateCompletion ? null : DateTimeOffset.UtcNow.AddSeconds(instance.PollIntervalSeconds),
                }).ToList();
            await Parallel.ForEachAsync(snapshots, new ParallelOptions { MaxDegreeOfParallelism = options.IngestConcurrency },
                async (snapshot, _) =>
                {
                    if (run.Over) return;
                    var sent = Stopwatch.GetTimestamp();
                    // The outbox sends the same snapshot again (idempotent by its id).
                    await SendAgainWhileBusyAsync(async () =>
                    {
                        await api.WriteAsync(snapshot, CancellationToken.None);
                        return true;
                    }, run);
                    run.DeliveryMs.Add(Stopwatch.GetElapsedTime(sent).TotalMilliseconds);
                    run.Delivered.Add(run.Clock.Elapsed);
                });
        }
        await Task.WhenAll(completions);
    }

    /// <summary>The synthetic instance's number, after "-sql" in its name (<see cref="SyntheticFleet"/>).</summary>
    static int Number(string name) =>
        int.Parse(name[(name.LastIndexOf("-sql", StringComparison.Ordinal) + 4)..], System.Globalization.CultureInfo.InvariantCulture);

    static async Task CompleteAsync(CollectorApiClient api, string name, InstanceRegistration instance, SemaphoreSlim slots, Run run)
    {
        await slots.WaitAsync();
        try
        {
            await SendAgainWhileBusyAsync(async () =>
            {
                await api.CompleteAsync(instance.Id, name, DateTimeOffset.UtcNow.AddSeconds(instance.PollIntervalSeconds), CancellationToken.None);
                return true;
            }, run);
        }
        finally
        {
            slots.Release();
        }
    }

    /// <summary>
    /// As a collector does, a request the busy store answered 503 (its lock wait ran out) is sent again, up to ten
    /// times: a lease, a snapshot and a completion alike, so a loaded store slows the replay instead of ending it.
    /// </summary>
    static async Task<T> SendAgainWhileBusyAsync<T>(Func<Task<T>> send, Run run)
    {
        for (var attempt = 0; ; attempt++)
        {
            try
            {
                return await send();
            }
            catch (HttpRequestException e) when (e.StatusCode == HttpStatusCode.ServiceUnavailable && attempt < 10)
            {
                Interlocked.Increment(ref run.Busy);
            }
        }
    }

    static async Task<long> StoredPollsAsync(BenchmarkStore store)
    {
        await using var connection = await store.OpenReadOnlyAsync();
        return await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM polls WHERE collector_name LIKE 'replay-%';", commandTimeout: 600);
    }

    sealed class Run(TimeSpan length)
    {
        public readonly Stopwatch Clock = Stopwatch.StartNew();
        public readonly ConcurrentBag<TimeSpan> Delivered = [];
        public readonly ConcurrentBag<double> DeliveryMs = [];
        public int Busy;
        public volatile bool RanDry;
        public bool Over => Clock.Elapsed >= length;
    }
}
