using System.Diagnostics;
using System.Security.Cryptography;
using IfiDashboard.E2E.Tests;
using Microsoft.Data.Sqlite;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Interactive sessions on the benchmark store (<c>--sessions 50</c>): the Release server with the collector off, and
/// that many headless Chromium tabs holding the overview (four in five) or the grid open on their circuits. Measures
/// memory per idle circuit, the time from an assessment landing to every open overview showing it, and the grid's
/// sort and filter round trips while the other sessions stay open (docs/benchmarks.md, "Interactive sessions").
/// </summary>
internal sealed class SessionsRun(BenchmarkOptions options, Report report)
{
    const double CircuitTargetMb = 1;
    const double LandingTargetMs = 1000;
    const double GridTargetMs = 100;

    public async Task RunAsync()
    {
        // The run registers and retires an instance and issues a key: on a copy, so the shared store stays as seeded.
        var (directory, copy) = SqliteBenchmarkStore.CopyToTemp(options.StorePath, "sessions");

        var adminKey = Convert.ToBase64String(RandomNumberGenerator.GetBytes(36));
        using var http = new HttpClient { Timeout = TimeSpan.FromMinutes(5) };
        var log = Path.ChangeExtension(options.StorePath, ".sessions-server.log");
        await using var server = await ServerProcess.StartAsync(RepositoryLayout.ServerDll(options.Configuration), directory, log,
            new Dictionary<string, string>
            {
                ["Store:ConnectionString"] = $"Data Source={copy}",
                ["Collector:Enabled"] = "false",
                ["Api:BootstrapAdminKey"] = adminKey,
                // The landing is found by asking the API every 25 ms, beyond the default 600 requests a minute per key.
                ["Api:RateLimit:PermitLimit"] = "100000",
            }, options.ServerEnvironment, http, TimeSpan.FromMinutes(2));
        await new PageTimer(http, server.Address).GetAsync("/", Markers.Overview); // the first assessment is built
        Console.WriteLine($"sessions run: server pid {server.Pid} at {server.Address} (log: {log})");
        var landing = await AssessmentLanding.IssueKeyAsync(http, server.Address, adminKey);
        var diagnostics = RuntimeDiagnostics.Find(options.DotnetTools, directory);
        if (diagnostics.Missing.Length > 0)
            Console.WriteLine($"not found: {diagnostics.Missing} (dotnet tool install --tool-path DIR dotnet-gcdump / dotnet-counters, then --dotnet-tools DIR); " +
                              "memory from /proc alone, circuits counted in the tabs alone");

        var circuits = diagnostics.StartCountingCircuits(server.Pid);
        using var sessions = new BrowserSessions(new Browser(), server.Address);
        sessions.WarmUp();
        var idle = await MemoryAsync(server, landing, diagnostics, sessions, "no session open");

        // A fifth of the sessions first: memory between that and all of them is what one more circuit costs, apart
        // from what the first one brings for all (the grid's rows, the overview's model, the render path).
        var few = Math.Max(1, options.Sessions / 5);
        sessions.Open(few);
        sessions.WaitAllLive(TimeSpan.FromMinutes(3));
        sessions.WatchOverviews();
        var some = await MemoryAsync(server, landing, diagnostics, sessions, $"{few} sessions idle");

        var load = Machine.LoadAverage();
        var opening = Stopwatch.StartNew();
        sessions.Open(options.Sessions - few);
        var (live, visible) = sessions.WaitAllLive(TimeSpan.FromMinutes(3));
        Console.WriteLine($"{sessions.Count} tabs open ({sessions.OverviewTabs.Count} overviews, {sessions.GridTabs.Count} grids), " +
                          $"{live} live, {visible} visible, in {opening.Elapsed.TotalSeconds:F0} s");
        report.Add($"sessions open (Chromium tabs showing the live indicator; {sessions.OverviewTabs.Count} overviews, {sessions.GridTabs.Count} grids)",
            $"{live} of {sessions.Count} live, {visible} visible, opened in {opening.Elapsed.TotalSeconds:F0} s", "—", load);

        sessions.WatchOverviews();
        var busy = await MemoryAsync(server, landing, diagnostics, sessions, $"{sessions.Count} sessions idle");
        if (circuits is not null)
        {
            var (active, connected) = await circuits.StopAsync();
            Console.WriteLine($"Blazor's circuit meter, net since before the warm-up: {active} active, {connected} connected");
            report.Add("circuits by Blazor's meter (opened and not closed since before the warm-up)", $"{active} active, {connected} connected", "—", busy.Load);
        }
        ReportMemory(idle, some, few, busy, sessions.Count);

        await LandingsAsync(sessions, landing, server.Pid);
        GridRoundTrips(sessions);

        await server.DisposeAsync();
        SqliteConnection.ClearAllPools();
        try { Directory.Delete(directory, recursive: true); } catch (IOException) { }
    }

    sealed record Memory(ProcessMemory Process, HeapDump? Heap, string Load);

    /// <summary>
    /// Read once an assessment landed and every open page took it (the server rebuilds it every minute: mid-rebuild,
    /// or while circuits still show the previous one, two assessments are alive): the heap after the full GC that
    /// dotnet-gcdump induces, RSS right after it.
    /// </summary>
    static async Task<Memory> MemoryAsync(ServerProcess server, AssessmentLanding landing, RuntimeDiagnostics diagnostics,
        BrowserSessions sessions, string what)
    {
        var landed = await landing.WaitForNextAsync(TimeSpan.FromSeconds(150));
        if (sessions.Count > 0)
            sessions.WhenOverviewsShowed(landed.ComputedAt.ToUnixTimeMilliseconds(), TimeSpan.FromSeconds(60));
        await QuietAsync(server.Pid);
        var load = Machine.LoadAverage();
        var heap = await diagnostics.LiveHeapAsync(server.Pid);
        var memory = server.Memory();
        Console.WriteLine($"{what}: RSS {memory.RssMb:F1} MB (peak {memory.PeakRssMb:F0} MB), live managed heap {Mb(heap)}");
        return new Memory(memory, heap, load);
    }

    /// <summary>
    /// Waits (up to a minute) until, over half a second, the server used under 5 % of a core and the browser under 20 %
    /// (50 idle tabs): every circuit rendered and every tab applied what it was sent, the grids' included.
    /// </summary>
    static async Task QuietAsync(int server)
    {
        var clock = Stopwatch.StartNew();
        var (serverBefore, browserBefore) = (ProcessCpu.Milliseconds(server), ProcessCpu.BrowserMilliseconds(server));
        while (clock.Elapsed < TimeSpan.FromMinutes(1))
        {
            await Task.Delay(500);
            var (serverNow, browserNow) = (ProcessCpu.Milliseconds(server), ProcessCpu.BrowserMilliseconds(server));
            if (serverNow - serverBefore < 25 && browserNow - browserBefore < 100) return;
            (serverBefore, browserBefore) = (serverNow, browserNow);
        }
        Console.WriteLine("the server and the browser did not fall quiet within a minute; read anyway");
    }

    void ReportMemory(Memory idle, Memory some, int few, Memory busy, int sessions)
    {
        report.Add("server with no session open (after warm-up, GC)",
            $"RSS {idle.Process.RssMb:F0} MB · live heap {Mb(idle.Heap)}", "—", idle.Load);
        report.Add($"server with {few} idle sessions (GC)",
            $"RSS {some.Process.RssMb:F0} MB · live heap {Mb(some.Heap)}", "—", some.Load);
        report.Add($"server with {sessions} idle sessions (GC)",
            $"RSS {busy.Process.RssMb:F0} MB · live heap {Mb(busy.Heap)}", "—", busy.Load);
        var rssPerCircuit = (busy.Process.RssMb - idle.Process.RssMb) / sessions;
        report.Add($"RSS per idle circuit beyond the first {few} (({sessions} − {few}) ÷ {sessions - few})",
            $"{(busy.Process.RssMb - some.Process.RssMb) / (sessions - few):F2} MB", "—", busy.Load);
        report.Add("RSS per idle circuit ((with − without) ÷ sessions)", $"{rssPerCircuit:F2} MB",
            Report.Verdict(rssPerCircuit <= CircuitTargetMb, "≤ 1 MB"), busy.Load);
        if (idle.Heap is { } before && busy.Heap is { } after)
        {
            // Where the memory goes, by type: what the first sessions brought, and what each one after them adds.
            if (some.Heap is { } middle)
                foreach (var (from, to, count, what) in new[] { (before, middle, few, $"the first {few} sessions"), (middle, after, sessions - few, $"the other {sessions - few}") })
                {
                    Console.WriteLine($"live heap growth with {what}, by type (KB per circuit, estimated from dotnet-gcdump report):");
                    foreach (var (type, bytes) in to.GrowthSince(from, top: 10))
                        Console.WriteLine($"  {bytes / 1024.0 / count,8:F1}  {type}");
                }
            var heapPerCircuit = (after.Mb - before.Mb) / sessions;
            if (some.Heap is { } fewHeap)
                report.Add($"live managed heap per idle circuit beyond the first {few} (({sessions} − {few}) ÷ {sessions - few})",
                    $"{(after.Mb - fewHeap.Mb) / (sessions - few):F2} MB", "—", busy.Load);
            report.Add("live managed heap per idle circuit", $"{heapPerCircuit:F2} MB",
                Report.Verdict(heapPerCircuit <= CircuitTargetMb, "≤ 1 MB"), busy.Load);
        }
    }

    static string Mb(HeapDump? heap) => heap is null ? "not read" : $"{heap.Mb:F1} MB";

    /// <summary>
    /// Each repetition lands a change through the API and times, per overview tab, from the landing (the earlier bound:
    /// see <see cref="AssessmentLanding"/>) to the moment the tab's DOM showed that assessment.
    /// </summary>
    async Task LandingsAsync(BrowserSessions sessions, AssessmentLanding landing, int serverPid)
    {
        var load = Machine.LoadAverage();
        var perTab = new List<double>();
        var toEvery = new List<double>();
        var uncertainty = new List<double>();
        var atLeast = new List<double>();
        var toEveryAtLeast = new List<double>();
        var missed = 0;
        var cpu = new List<(double Assessing, double Server, double Browser)>();
        for (var i = 0; i < options.Landings; i++)
        {
            var (_, before) = await landing.CurrentAsync();
            var serverAtChange = ProcessCpu.Milliseconds(serverPid);
            await landing.ChangeAsync();
            var landed = await landing.WaitForChangedAsync(before, TimeSpan.FromSeconds(120));
            var (serverAtLanding, browserAtLanding) = (ProcessCpu.Milliseconds(serverPid), ProcessCpu.BrowserMilliseconds(serverPid));
            // The tabs are left alone until the server and the browser fall quiet: switching WebDriver from tab to tab
            // costs the browser more CPU than applying the update (2.3 of 3.1 s in a run that read them at once), and
            // would slow the very updates it waits for. The stamps were taken in the pages; they are read afterwards.
            await QuietAsync(serverPid);
            // Whose work the pages waited on: the server's (re-reading and rendering on every circuit) or the browser's
            // (40 tabs applying and laying out the update).
            var serverAfter = ProcessCpu.Milliseconds(serverPid) - serverAtLanding;
            var browserAfter = ProcessCpu.BrowserMilliseconds(serverPid) - browserAtLanding;
            var shown = sessions.WhenOverviewsShowed(landed.ComputedAt.ToUnixTimeMilliseconds(), TimeSpan.FromSeconds(60));
            cpu.Add((serverAtLanding - serverAtChange, serverAfter, browserAfter));
            var delays = shown.OfType<long>().Select(at => (double)(at - landed.NotBefore.ToUnixTimeMilliseconds())).ToList();
            atLeast.AddRange(shown.OfType<long>().Select(at => Math.Max(0, (double)(at - landed.NotAfter.ToUnixTimeMilliseconds()))));
            if (delays.Count > 0) toEveryAtLeast.Add(Math.Max(0, delays.Max() - landed.UncertaintyMs));
            missed += shown.Count(at => at is null);
            perTab.AddRange(delays);
            if (delays.Count > 0) toEvery.Add(delays.Max());
            uncertainty.Add(landed.UncertaintyMs);
            Console.WriteLine($"landing {i + 1}: {delays.Count} of {shown.Count} overviews updated; " +
                              (delays.Count > 0 ? $"first {delays.Min():F0} ms, p50 {new Latencies("", delays, 0).P50:F0} ms, last {delays.Max():F0} ms " : "") +
                              $"after it landed (known within {landed.UncertaintyMs:F0} ms); CPU: server {serverAtLanding - serverAtChange:F0} ms " +
                              $"to land it, then server {serverAfter:F0} ms and browser {browserAfter:F0} ms until both fell quiet");
        }
        var tabs = sessions.OverviewTabs.Count;
        if (perTab.Count == 0) throw new InvalidOperationException($"No overview showed any of the {options.Landings} landings within 60 s.");
        var eachTab = new Latencies("", perTab, 0);
        var every = new Latencies("", toEvery, 0);
        var eachTabAtLeast = new Latencies("", atLeast, 0);
        var everyAtLeast = new Latencies("", toEveryAtLeast, 0);
        // At most: from the earliest the landing can have been; at least: from the latest (the API's answer that showed it).
        report.Add($"assessment landing → each open overview ({options.Landings} landings × {tabs} overviews, {sessions.Count} sessions), at most · at least",
            $"p50 {eachTab.P50:F0} · {eachTabAtLeast.P50:F0} ms, p95 {eachTab.P95:F0} · {eachTabAtLeast.P95:F0} ms, max {eachTab.Max:F0} · {eachTabAtLeast.Max:F0} ms"
            + (missed > 0 ? $" · {missed} never updated" : ""), "—", load);
        report.Add($"assessment landing → every open overview (slowest tab per landing, {options.Landings} landings), at most · at least",
            $"p50 {every.P50:F0} · {everyAtLeast.P50:F0} ms, p95 {every.P95:F0} · {everyAtLeast.P95:F0} ms, max {every.Max:F0} · {everyAtLeast.Max:F0} ms " +
            $"(landing known within {new Latencies("", uncertainty, 0).P50:F0} ms, p50)",
            Report.Verdict(missed == 0 && every.Max < LandingTargetMs, "< 1 s"), load);
        report.Add("CPU per landing (mean): server assessing; then, until both fell quiet, server and browser",
            $"{cpu.Average(c => c.Assessing):F0} ms; then {cpu.Average(c => c.Server):F0} ms server, {cpu.Average(c => c.Browser):F0} ms browser", "—", load);
    }

    /// <summary>Sorts and filters in one grid tab, one after the other, while every other tab stays open on its circuit.</summary>
    void GridRoundTrips(BrowserSessions sessions)
    {
        var load = Machine.LoadAverage();
        var grid = sessions.GridProbe();
        var environments = grid.Environments();
        var sorts = new List<double>();
        var filters = new List<double>();
        for (var i = 0; i < options.GridActions; i++)
        {
            sorts.Add(grid.SortByName());
            filters.Add(grid.FilterEnvironment(environments[i % environments.Count]));
        }
        Console.WriteLine($"grid: sort p50 {new Latencies("", sorts, 0).P50:F0} ms, filter p50 {new Latencies("", filters, 0).P50:F0} ms " +
                          $"over {options.GridActions} each, {environments.Count} environments");
        foreach (var (what, times) in new[] { ("sort by instance name, the other way", sorts), ("filter on one environment", filters) })
        {
            var latencies = new Latencies(what, times, 0);
            report.Add($"grid {what}: click to rows shown ({times.Count} actions, {sessions.Count} sessions open)",
                $"p50 {latencies.P50:F0} ms · p95 {latencies.P95:F0} ms · max {latencies.Max:F0} ms",
                Report.Verdict(latencies.P95 < GridTargetMs, "p95 < 100 ms"), load);
        }
    }
}
