using IfiDashboard.Dashboard.Benchmarks;
using IfiDashboard.Dashboard.Benchmarks.Soak;

// Dashboard rendering and memory at fleet scale (docs/benchmarks.md, "Dashboard rendering and memory"), or the soak ("Soak").
if (BenchmarkStartup.ParseOrExplain(args, BenchmarkOptions.Parse, BenchmarkOptions.Usage) is not { } options) return 2;
if (options.SoakMinutes > 0) return await new SoakRun(options).RunAsync();

Console.WriteLine($"# Dashboard benchmark: {options.Instances} instances, {options.Events} growth events over {options.Days} days");
Console.WriteLine($"machine: {Machine.Describe()}");
Console.WriteLine($"load average at start: {Machine.LoadAverage()}");
if (options.ServerEnvironment.Count > 0)
    Console.WriteLine($"server environment: {string.Join(' ', options.ServerEnvironment.Select(e => $"{e.Key}={e.Value}"))}");
var report = new Report();

var store = BenchmarkStore.For(options);
if (options.Rebuild)
    await store.DeleteAsync();
if (await store.IsSeededAsync())
{
    Console.WriteLine($"reusing the store {store.Description}");
}
else
{
    Console.WriteLine($"building the store {store.Description} through InstanceInventory + SnapshotStore ({options.SeedWriters} writers) ...");
    var load = Machine.LoadAverage();
    var took = options.SeedBlock > 0 && store is PostgresBenchmarkStore postgres
        ? await PostgresBlockCopy.BuildAsync(options, postgres, options.SeedBlock)
        : await new StoreSeeder(options, store).BuildAsync(CancellationToken.None);
    report.Add(options.SeedBlock > 0 ? $"store build (blocks of {options.SeedBlock} through the real path, copied in SQL; not a target)"
        : "store build (registration + ingestion, not a target)",
        options.SeedBlock > 0 ? $"{took.TotalSeconds:F0} s" : $"{took.TotalSeconds:F0} s ({options.Events / Math.Max(1, took.TotalSeconds):F0} events/s)",
        "—", load);
}
var facts = await StoreFacts.ReadAsync(store);
Console.WriteLine($"store: {facts.Instances} instances, {facts.GrowthEvents} growth events, {facts.Polls} polls, " +
                  $"{facts.Files} files, {facts.Bytes / 1024.0 / 1024:F0} MB; busiest instance {facts.BusiestInstanceId} ({facts.BusiestEvents} events)");

if (options.Sessions > 0)
    await new SessionsRun(options, report).RunAsync();
else if (options.ChurnMinutes > 0)
    await new ChurnRun(options, report).RunAsync();
else if (options.StandaloneCollectors > 0)
    await new StandaloneCollectorsRun(options, report, store).RunAsync();
else if (options.IngestClients > 0)
    await new IngestionReplay(options, report, store, facts).RunAsync();
else if (!options.ProbeOnly && !options.CollectorOnly)
    await new DashboardRun(options, report, store, facts).RunAsync();
if (options.ProbeAssessment)
    await AssessmentProbe.RunAsync(options, report);
if (options.CollectorFleet > 0 && !options.ProbeOnly && options.StandaloneCollectors == 0)
    await new CollectorRun(options, report).RunAsync();

Console.WriteLine();
Console.WriteLine($"load average at end: {Machine.LoadAverage()}");
Console.WriteLine();
Console.Write(report.ToMarkdown());
return 0;
