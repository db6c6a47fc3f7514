using System.Diagnostics;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// The server on the benchmark store with the collector off: time to its first complete fleet assessment, its
/// memory then and after serving, and how long the pages take.
/// </summary>
internal sealed class DashboardRun(BenchmarkOptions options, Report report, BenchmarkStore store, StoreFacts facts)
{
    // DESIGN.md's targets at 10,000 instances; issue 16's at 100,000 (on PostgreSQL): 1 GB, and the busiest instance's page.
    double MemoryTargetMb => facts.Instances > 10_000 ? 1024 : 300;
    double? DetailTargetMs => facts.Instances > 10_000 ? 150 : null;

    public async Task RunAsync()
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromMinutes(10) };
        var workingDirectory = Directory.CreateTempSubdirectory("ifi-dashboard-bench-").FullName;
        var log = store.LogPath("server");
        var load = Machine.LoadAverage();
        var clock = Stopwatch.StartNew();
        await using var server = await ServerProcess.StartAsync(RepositoryLayout.ServerDll(options.Configuration), workingDirectory, log,
            new Dictionary<string, string>(store.ServerSettings) { ["Collector:Enabled"] = "false" }, options.ServerEnvironment, http, TimeSpan.FromMinutes(2));
        var alive = clock.Elapsed;
        Console.WriteLine($"server pid {server.Pid} at {server.Address} alive after {alive.TotalSeconds:F1} s (log: {log})");
        report.Add("server start to /healthz", $"{alive.TotalSeconds:F1} s", "—", load);

        // Pages read the latest assessment from memory; the first request waits for the first one to be built
        // (every growth event of the window streamed from SQLite and assessed).
        var timer = new PageTimer(http, server.Address);
        load = Machine.LoadAverage();
        var (first, _) = await timer.GetAsync("/", Markers.Overview);
        Console.WriteLine($"first complete assessment (first GET /) after {first.TotalSeconds:F1} s");
        report.Add($"first complete assessment ({facts.Instances} instances, {facts.GrowthEvents} events), first GET /",
            $"{first.TotalSeconds:F1} s", "—", load);
        var afterAssessment = server.Memory();
        Console.WriteLine($"server RSS after it: {afterAssessment.RssMb:F0} MB, peak {afterAssessment.PeakRssMb:F0} MB");
        report.Add("server RSS after the first assessment (collector off)",
            $"{afterAssessment.RssMb:F0} MB now · {afterAssessment.PeakRssMb:F0} MB peak",
            Report.Verdict(afterAssessment.PeakRssMb < MemoryTargetMb, $"< {MemoryTargetMb:F0} MB"), load);

        // The first assessment leaves work behind on a store no server ran on: the change journal records every
        // instance's first status, retention prunes what aged out. The pages are timed once that is done (bounded).
        load = Machine.LoadAverage();
        var cpuBefore = ProcessCpu.Milliseconds(server.Pid);
        var (settled, quiet) = await ProcessCpu.UntilQuietAsync(server.Pid, TimeSpan.FromMinutes(10));
        var settleCpu = ProcessCpu.Milliseconds(server.Pid) - cpuBefore;
        Console.WriteLine($"server {(quiet ? "quiet" : "still busy")} {settled.TotalSeconds:F0} s after the first GET / ({settleCpu / 1000:F1} s of CPU)");
        report.Add("server busy after the first GET / (first journal, retention) until quiet",
            $"{settled.TotalSeconds:F0} s, {settleCpu / 1000:F1} s of CPU{(quiet ? "" : "; not quiet, timed anyway")}", "—", load);

        var pages = new (string Path, string Marker)[]
        {
            ("/", Markers.Overview),
            ("/instances", Markers.Grid),
            ("/instances?page=100", Markers.Grid),
            ($"/instances/{facts.BusiestInstanceId}", Markers.Detail),
        };
        foreach (var (path, marker) in pages)
        {
            load = Machine.LoadAverage();
            var page = await timer.MeasureAsync(path, marker, options.Warmup, options.Requests);
            Console.WriteLine($"GET {path}: p50 {page.P50:F1} ms, p95 {page.P95:F1} ms, max {page.Max:F1} ms ({page.Bytes / 1024.0:F0} KB)");
            report.Page(page, load, path.StartsWith("/instances/", StringComparison.Ordinal) ? DetailTargetMs : null);
        }

        var afterPages = server.Memory();
        Console.WriteLine($"server RSS after the page requests: {afterPages.RssMb:F0} MB, peak {afterPages.PeakRssMb:F0} MB");
        report.Add("server RSS after the page requests (collector off)",
            $"{afterPages.RssMb:F0} MB now · {afterPages.PeakRssMb:F0} MB peak",
            Report.Verdict(afterPages.PeakRssMb < MemoryTargetMb, $"< {MemoryTargetMb:F0} MB"), Machine.LoadAverage());

        // The server re-assesses the fleet every minute even when nothing changes, and each rebuild runs while the
        // previous assessment is still in use: the numbers above come before the first one, this one after.
        if (options.IdleSeconds > 0)
        {
            load = Machine.LoadAverage();
            await Task.Delay(TimeSpan.FromSeconds(options.IdleSeconds));
            var idle = server.Memory();
            Console.WriteLine($"server RSS after {options.IdleSeconds} s idle: {idle.RssMb:F0} MB, peak {idle.PeakRssMb:F0} MB");
            report.Add($"server RSS after {options.IdleSeconds} s idle (timed re-assessments, collector off)",
                $"{idle.RssMb:F0} MB now · {idle.PeakRssMb:F0} MB peak",
                Report.Verdict(idle.PeakRssMb < MemoryTargetMb, $"< {MemoryTargetMb:F0} MB"), load);
        }
        try { Directory.Delete(workingDirectory, recursive: true); } catch (IOException) { }
    }
}

/// <summary>Markup each page has only when it rendered its data (not its loading or error state).</summary>
internal static class Markers
{
    public const string Overview = "id=\"h-unknown\"";
    public const string Grid = "data-grid=\"instances\"";
    public const string Detail = "data-remediation=";
}
