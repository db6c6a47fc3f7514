using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Dapper;
using IfiDashboard.Server.Demo;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Policy;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Simulator.Hosting;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>
/// The soak (docs/benchmarks.md, "Soak"): the real server (Release, Production, SQLite, embedded collector, alerts by
/// SMTP) polls the demo fleet, which runs in this process so that its faults can be switched every minute, while the
/// store's write lock is taken for a while every few minutes. Samples the server's memory every 10 s and, at the end,
/// checks that it stayed flat, that nothing went unhandled, that every poll attempt was stored and no alert mailed twice.
/// </summary>
internal sealed class SoakRun(BenchmarkOptions options)
{
    const string CollectorName = "soak-collector";
    static readonly TimeSpan SampleEvery = TimeSpan.FromSeconds(10);
    static readonly TimeSpan SettleLimit = TimeSpan.FromMinutes(3);
    const double FlatTolerance = 0.10;

    public async Task<int> RunAsync()
    {
        var directory = options.SoakDirectory is { } given
            ? Directory.CreateDirectory(given).FullName
            : Directory.CreateTempSubdirectory("ifi-dashboard-soak-").FullName;
        var store = Path.Combine(directory, "store.db");
        foreach (var file in new[] { store, store + "-wal", store + "-shm" }) File.Delete(file);
        var serverLog = Path.Combine(directory, "server.log");
        var duration = TimeSpan.FromMinutes(options.SoakMinutes);
        var warmup = TimeSpan.FromMinutes(options.SoakWarmupMinutes ?? Math.Min(10, options.SoakMinutes / 3.0));
        var lockEvery = TimeSpan.FromMinutes(options.SoakLockEveryMinutes);
        var lockHold = TimeSpan.FromSeconds(options.SoakLockSeconds);
        var startedAt = DateTimeOffset.UtcNow;
        var loadAtStart = Machine.LoadAverage();
        Console.WriteLine($"# Soak: {options.SoakMinutes} min, write lock {lockHold.TotalSeconds:F0} s every {lockEvery.TotalMinutes:F0} min, warm-up {warmup.TotalMinutes:F0} min");
        Console.WriteLine($"started {startedAt:yyyy-MM-dd HH:mm} UTC; machine: {Machine.Describe()}; load average {loadAtStart}");
        Console.WriteLine($"working directory {directory} (store, server.log, simulator.log, mail/)");

        await using var smtp = await SmtpSinkProcess.StartAsync(directory);
        await using var simulatorLog = new StreamWriter(Path.Combine(directory, "simulator.log")) { AutoFlush = true };
        var scenario = DemoMode.LoadScenario(startedAt);
        await using var fleet = FleetSimulator.Start(scenario, line => { lock (simulatorLog) simulatorLog.WriteLine($"{DateTimeOffset.UtcNow:O} {line}"); });
        await RegisterAsync(fleet, store, startedAt);

        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        // For the API writes sent while the store is locked; known to this run only, given through the environment.
        var adminKey = Convert.ToHexString(RandomNumberGenerator.GetBytes(24));
        await using var server = await ServerProcess.StartAsync(RepositoryLayout.ServerDll(options.Configuration), directory, serverLog,
            new Dictionary<string, string>
            {
                ["Store:ConnectionString"] = $"Data Source={store}",
                ["Collector:Enabled"] = "true",
                ["Collector:Name"] = CollectorName,
                ["Alerts:Enabled"] = "true",
                ["Alerts:DefaultTo:0"] = "oncall@soak.test",
                // An instance faulty for its minute is Unknown for one to two minutes: with the default hour nothing
                // would be mailed, with a minute the flapping instances open and resolve alerts all along.
                ["Alerts:Rules:UnknownAfter"] = "00:01:00",
                ["Alerts:Smtp:Host"] = "127.0.0.1",
                ["Alerts:Smtp:Port"] = smtp.Port.ToString(CultureInfo.InvariantCulture),
                ["Alerts:Smtp:Security"] = "None",
                ["Alerts:Smtp:From"] = "ifi-dashboard@soak.test",
            }, ServerEnvironment(fleet, adminKey), http, TimeSpan.FromMinutes(2));
        Console.WriteLine($"server pid {server.Pid} at {server.Address}; {fleet.Instances.Count} simulated instances, polled every {InstanceRules.MinPollSeconds} s");

        var cycle = new FaultCycle(fleet);
        Console.WriteLine($"faults cycle over {cycle.Subjects.Count} healthy instances; the demo's own faulty ones keep their faults");
        var ledger = new PollLedger(fleet);
        var apiWrites = new ApiWriteProbe(http, server.Address, adminKey);
        var samples = new List<(TimeSpan At, ProcessMemory Memory)>();
        var holds = new List<LockHold>();
        var readsUnderLock = new List<int>();
        var clock = Stopwatch.StartNew();
        var minute = -1;
        var nextLock = lockEvery / 2;
        Task<LockHold> holding = Task.FromResult(new LockHold(TimeSpan.Zero, TimeSpan.Zero, ApiWriteOutcome.None));
        var lockHeld = false;
        using var cadence = new PeriodicTimer(SampleEvery);
        while (clock.Elapsed < duration && !server.HasExited)
        {
            if ((int)clock.Elapsed.TotalMinutes != minute)
            {
                minute = (int)clock.Elapsed.TotalMinutes;
                cycle.Advance(minute);
                Console.WriteLine($"[{Stamp(clock.Elapsed)}] {cycle.Current} on {cycle.Faulty.Count} instances");
            }
            if (lockHeld && holding.IsCompleted)
            {
                holds.Add(await holding);
                lockHeld = false;
            }
            if (!lockHeld && clock.Elapsed >= nextLock)
            {
                holding = HoldAsync(store, lockHold, clock, apiWrites);
                lockHeld = true;
                nextLock += lockEvery;
                Console.WriteLine($"[{Stamp(clock.Elapsed)}] taking the store's write lock for {lockHold.TotalSeconds:F0} s");
            }
            if (lockHeld) readsUnderLock.Add(await StatusOfAsync(http, server.Address));
            ledger.Sample();
            var memory = server.Memory();
            samples.Add((clock.Elapsed, memory));
            Console.WriteLine($"[{Stamp(clock.Elapsed)}] RSS {memory.RssMb:F0} MB (peak {memory.PeakRssMb:F0} MB), {ledger.Attempts.Count} attempts seen, load {Machine.LoadAverage()}");
            await cadence.WaitForNextTickAsync();
        }
        var alive = !server.HasExited;
        cycle.Clear();
        if (lockHeld) holds.Add(await holding);
        var end = DateTimeOffset.UtcNow;
        Console.WriteLine($"[{Stamp(clock.Elapsed)}] faults lifted; waiting for the polls under way to be stored");

        // Polls under way at the end are stored when they finish; a connection hung in PRELOGIN shows up only at the
        // simulator's login timeout. Then every attempt up to the end must be covered, within a bound.
        var settle = Stopwatch.StartNew();
        var loginTimeout = TimeSpan.FromSeconds(fleet.Instances.Max(i => i.Scenario.LoginTimeoutSeconds) + 5);
        IReadOnlyList<PollAttempt> uncovered;
        while (true)
        {
            ledger.Sample();
            uncovered = await ledger.UncoveredAsync(store, end);
            if ((uncovered.Count == 0 && settle.Elapsed > loginTimeout) || settle.Elapsed > SettleLimit) break;
            await Task.Delay(TimeSpan.FromSeconds(5));
        }
        var mails = await WaitForOutboxAsync(store, smtp);
        var final = alive && !server.HasExited ? server.Memory() : samples.LastOrDefault().Memory;
        alive &= !server.HasExited;
        await server.DisposeAsync();
        SqliteConnection.ClearAllPools();

        var polls = await PollLedger.StoredPollsAsync(store);
        var log = ServerLogFacts.Read(serverLog);
        var summary = Summarise(new SoakFacts(options, startedAt, loadAtStart, Machine.LoadAverage(), warmup, samples, final, alive,
            ledger, uncovered, polls, log, holds, readsUnderLock, cycle, mails, end));
        Console.WriteLine();
        Console.Write(summary.Markdown);
        return summary.Passed ? 0 : 1;
    }

    /// <summary>The demo's own registration path (<see cref="DemoFleetHost.RegisterAsync"/>), then every instance at the shortest poll interval the inventory accepts.</summary>
    static async Task RegisterAsync(FleetSimulator fleet, string store, DateTimeOffset now)
    {
        await using var services = new SqliteBenchmarkStore(store).Services();
        await services.MigrateIfiStoreAsync(CancellationToken.None);
        var inventory = services.GetRequiredService<InstanceInventory>();
        await DemoFleetHost.RegisterAsync(fleet, inventory, services.GetRequiredService<PolicyStore>(), now, CancellationToken.None);
        foreach (var registration in await inventory.ListActiveAsync(CancellationToken.None))
        {
            var updated = await inventory.UpdateAsync(registration with { PollIntervalSeconds = InstanceRules.MinPollSeconds }, CancellationToken.None);
            if (updated.Refusal is { Errors: [var first, ..] })
                throw new InvalidOperationException($"{registration.Name}: {first.Path}: {first.Message}");
        }
        SqliteConnection.ClearAllPools();
    }

    /// <summary>The demo credential as an operator gives it, through the environment (never the command line, which any local user can read).</summary>
    Dictionary<string, string> ServerEnvironment(FleetSimulator fleet, string adminKey)
    {
        var environment = DemoMode.CredentialSettings(fleet.Scenario.DefaultLogins[0])
            .ToDictionary(s => s.Key.Replace(":", "__", StringComparison.Ordinal), s => s.Value ?? "");
        environment["Api__BootstrapAdminKey"] = adminKey;
        foreach (var (name, value) in options.ServerEnvironment) environment[name] = value;
        return environment;
    }

    /// <summary>Takes the lock, sends an API write that meets it, and releases the lock after the hold.</summary>
    static async Task<LockHold> HoldAsync(string store, TimeSpan hold, Stopwatch clock, ApiWriteProbe apiWrites)
    {
        var asked = clock.Elapsed;
        TimeSpan wait;
        Task<ApiWriteOutcome> write;
        await using (await StoreWriteLock.TakeAsync(store))
        {
            wait = clock.Elapsed - asked;
            write = apiWrites.RunAsync();
            await Task.Delay(hold);
        }
        return new LockHold(clock.Elapsed, wait, await write);
    }

    static async Task<int> StatusOfAsync(HttpClient http, Uri server)
    {
        try
        {
            using var response = await http.GetAsync(new Uri(server, "/"));
            return (int)response.StatusCode;
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
        {
            return 0;
        }
    }

    /// <summary>Waits, boundedly, until the outbox has nothing left to send, then pairs each mail received with its row.</summary>
    static async Task<AlertMails> WaitForOutboxAsync(string store, SmtpSinkProcess smtp)
    {
        var waited = Stopwatch.StartNew();
        IReadOnlyList<(string MessageId, string DedupeKey, string Status)> rows;
        while (true)
        {
            await using (var connection = new SqliteConnection($"Data Source={store};Mode=ReadOnly;Pooling=False"))
            {
                await connection.OpenAsync();
                rows = (await connection.QueryAsync<(string, string, string)>("SELECT message_id, dedupe_key, status FROM alert_outbox;")).ToList();
            }
            if (rows.All(r => r.Status != "Pending") || waited.Elapsed > SettleLimit) break;
            await Task.Delay(TimeSpan.FromSeconds(2));
        }
        return AlertMails.Pair(rows, smtp.MessageIds());
    }

    static string Stamp(TimeSpan at) => $"{(int)at.TotalMinutes:D2}:{at.Seconds:D2}";

    static (string Markdown, bool Passed) Summarise(SoakFacts facts)
    {
        var text = new StringBuilder();
        var passed = true;
        void Criterion(string what, string result, bool met)
        {
            passed &= met;
            text.AppendLine($"| {what} | {result} | {(met ? "✔ met" : "✘ missed")} |");
        }

        text.AppendLine($"Soak of {facts.Options.SoakMinutes} min from {facts.StartedAt:yyyy-MM-dd HH:mm} UTC; load average {facts.LoadAtStart} at start, {facts.LoadAtEnd} at end.");
        text.AppendLine();
        text.AppendLine("| criterion | result | verdict |");
        text.AppendLine("|---|---|---|");

        var memory = MemoryTrend.Of(facts.Samples, facts.Warmup, facts.Final);
        Criterion($"RSS flat after warm-up (minute {facts.Warmup.TotalMinutes:F0}), within {FlatTolerance:P0}",
            memory.Describe(), memory.Baseline > 0 && memory.MaxGrowth <= FlatTolerance && memory.FinalGrowth <= FlatTolerance);
        Criterion("no unhandled exception, server alive at the end",
            $"{facts.Log.Unhandled} unhandled/crit lines; server {(facts.Alive ? "alive" : "exited")}", facts.Log.Unhandled == 0 && facts.Alive);

        var attempts = facts.Ledger.Attempts.Where(a => a.At <= facts.End).ToList();
        var byKind = string.Join(", ", attempts.GroupBy(a => a.Kind).OrderBy(g => g.Key, StringComparer.Ordinal).Select(g => $"{g.Count()} {g.Key}"));
        var outcomes = string.Join(", ", facts.Polls.GroupBy(p => p.Outcome).OrderByDescending(g => g.Count()).Select(g => $"{g.Count()} {g.Key}"));
        Criterion("every poll stored or retried (each connection the instances saw lies inside a stored poll)",
            $"{attempts.Count} connections seen ({byKind}); {facts.Uncovered.Count} not covered by a stored poll; " +
            $"{facts.Ledger.Overflows} transcript overflows; {facts.Polls.Count} polls stored ({outcomes}); " +
            $"{facts.Log.StoredAfterRetry} stored after a busy store's retry",
            facts.Uncovered.Count == 0 && facts.Ledger.Overflows == 0 && attempts.Count > 0);
        Criterion("no alert sent twice (mails per outbox row, i.e. per alert, rule, episode and transition)",
            facts.Mails.Describe(), facts.Mails.Duplicates == 0 && facts.Mails.WithoutRow == 0);

        var writes = facts.Holds.Select(h => h.ApiWrite).ToList();
        Criterion($"API writes while the lock is held: 503 with Retry-After, then stored",
            $"{writes.Count} writes (create and revoke an API key), {writes.Sum(w => w.Busy)} answers 503, " +
            $"{writes.Count(w => w.RetryAfterEveryTime)} with Retry-After on every 503, {writes.Count(w => w.Stored)} stored in the end",
            writes.Count > 0 && writes.All(w => w.Busy > 0 && w.RetryAfterEveryTime && w.Stored));
        var waits = facts.Holds.Count == 0 ? "none" : string.Join(", ", facts.Holds.Select(h => $"{h.Wait.TotalSeconds:F1}"));
        var reads = facts.ReadsUnderLock.GroupBy(s => s).OrderBy(g => g.Key).Select(g => $"{g.Count()}×{(g.Key == 0 ? "no answer" : g.Key.ToString(CultureInfo.InvariantCulture))}");
        text.AppendLine($"| store write lock held {facts.Options.SoakLockSeconds} s | {facts.Holds.Count} times (waits for it, s: {waits}); GET / meanwhile: {string.Join(", ", reads)} | — |");
        text.AppendLine($"| faults (instance-minutes) | {string.Join(", ", facts.Cycle.Switched.Select(s => $"{s.Key} {s.Value}"))} | — |");
        text.AppendLine($"| server log | {facts.Log.Describe()} | — |");
        foreach (var missing in facts.Uncovered.Take(20))
            text.AppendLine($"| uncovered attempt | {missing.Instance} {missing.Kind} at {missing.At:HH:mm:ss.fff} | ✘ |");
        return (text.ToString(), passed);
    }
}

internal readonly record struct LockHold(TimeSpan ReleasedAt, TimeSpan Wait, ApiWriteOutcome ApiWrite);

internal sealed record SoakFacts(BenchmarkOptions Options, DateTimeOffset StartedAt, string LoadAtStart, string LoadAtEnd, TimeSpan Warmup,
    IReadOnlyList<(TimeSpan At, ProcessMemory Memory)> Samples, ProcessMemory Final, bool Alive, PollLedger Ledger,
    IReadOnlyList<PollAttempt> Uncovered, IReadOnlyList<StoredPoll> Polls, ServerLogFacts Log, IReadOnlyList<LockHold> Holds,
    IReadOnlyList<int> ReadsUnderLock, FaultCycle Cycle, AlertMails Mails, DateTimeOffset End);
