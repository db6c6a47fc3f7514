using System.Globalization;
using System.Runtime;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>Prints each phase, the two loops side by side, and the Markdown row docs/benchmarks.md collects.</summary>
internal static class Report
{

    public static void Phases(string title, IEnumerable<PhaseResult> phases)
    {
        Console.WriteLine();
        Console.WriteLine($"### {title}");
        Console.WriteLine("| loop | polls | failed | wall s | polls/s | CPU % | sim CPU % | others CPU % | CPU ms/poll | alloc KB/poll | GC 0/1/2 | peak RSS MB | p50 ms | p95 ms |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|");
        foreach (var p in phases)
        {
            var m = p.Measurement;
            Console.WriteLine($"| {p.Loop} | {p.Polls} | {p.Failures} | {m.Wall.TotalSeconds:F2} | {p.PollsPerSecond:F0} | " +
                $"{100 * p.CpuCores:F0} | {Optional(100 * p.SimulatorCores)} | {Optional(100 * p.OthersCores)} | {p.CpuMsPerPoll:F2} | {p.AllocatedKbPerPoll:F0} | " +
                $"{m.Collections[0]}/{m.Collections[1]}/{m.Collections[2]} | {m.PeakWorkingSet / 1048576.0:F0} | " +
                $"{p.Latencies.Percentile(0.5):F1} | {p.Latencies.Percentile(0.95):F1} |");
        }
    }

    public static void Breakdown(IEnumerable<PhaseResult> phases)
    {
        Console.WriteLine();
        Console.WriteLine("### Where a poll's time goes (SqlClient diagnostics on; mean per poll, wall time inside the poll)");
        Console.WriteLine("| loop | polls/s | open ms | commands | command ms (sum) | rest ms (rows, mapping, snapshot) | mean poll ms | CPU ms/poll |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var p in phases)
        {
            if (p.Breakdown is not { } b || p.Polls == 0) continue;
            var mean = p.Latencies.Mean();
            var open = b.Open.TotalMilliseconds / p.Polls;
            var command = b.Command.TotalMilliseconds / p.Polls;
            Console.WriteLine($"| {p.Loop} | {p.PollsPerSecond:F0} | {open:F1} | {(double)b.Commands / p.Polls:F1} | {command:F1} | " +
                $"{mean - open - command:F1} | {mean:F1} | {p.CpuMsPerPoll:F2} |");
        }
    }

    public static void Jit(PhaseResult phase, IReadOnlyList<KeyValuePair<string, int>> compiled)
    {
        Console.WriteLine($"JIT during '{phase.Loop}': {compiled.Sum(c => c.Value)} methods in {phase.Polls} polls; by declaring type: " +
            string.Join(", ", compiled.Take(8).Select(c => $"{c.Key} {c.Value}")));
    }

    public static void Summary(BenchmarkOptions options, LoopSummary bare, LoopSummary collector, string loadBefore, string loadAfter)
    {
        var ratio = bare.PollsPerSecond / collector.PollsPerSecond;
        Console.WriteLine();
        Console.WriteLine("### Summary");
        Console.WriteLine($"collector {collector.PollsPerSecond:F0} polls/s, bare {bare.PollsPerSecond:F0} polls/s, " +
            $"bare/collector {ratio:F3} (target: collector >= 200 polls/s and ratio <= 1.25): " +
            (collector.PollsPerSecond >= 200 && ratio <= 1.25 ? "MET" : "NOT MET"));
        Console.WriteLine($"CPU ms per poll: collector {collector.CpuMsPerPoll:F2}, bare {bare.CpuMsPerPoll:F2}; " +
            $"allocated KB per poll: collector {collector.AllocatedKbPerPoll:F0}, bare {bare.AllocatedKbPerPoll:F0}; " +
            $"GC 0/1/2: collector {collector.Collections}, bare {bare.Collections}; failed polls: collector {collector.Failures}, bare {bare.Failures}");
        Console.WriteLine($"load average before: {loadBefore}; after: {loadAfter} (counts this run's own threads); " +
            $"other processes' CPU during the phases: collector {Optional(collector.OthersCpuPercent)} %, bare {Optional(bare.OthersCpuPercent)} %; {Environment.ProcessorCount} cores; " +
            $"GC {(GCSettings.IsServerGC ? "server" : "workstation")}{(GCSettings.LatencyMode == GCLatencyMode.Batch ? "" : ", concurrent")}");
        Console.WriteLine();
        Console.WriteLine("| date | simulator | instances | concurrency | mode | collector polls/s | bare polls/s | bare/collector | collector CPU % | bare CPU % | sim CPU % (C/B) | peak RSS MB | collector p50/p95 ms | bare p50/p95 ms | load 1m before | others CPU % (C/B) |");
        Console.WriteLine("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---|---|---:|---|");
        var mode = options.Seconds > 0 ? $"{options.Seconds:0.#} s × {options.Pairs}" : $"once × {options.Pairs}";
        var simulator = options.Simulator == SimulatorMode.InProcess ? "in-process" : "process";
        var simCpu = collector.SimulatorCpuPercent is { } c && bare.SimulatorCpuPercent is { } b ? $"{c:F0}/{b:F0}" : "in CPU %";
        Console.WriteLine($"| {DateTime.UtcNow:yyyy-MM-dd} | {simulator} | {options.Instances} | {options.Concurrency} | {mode} | " +
            $"{collector.PollsPerSecond:F0} | {bare.PollsPerSecond:F0} | {ratio:F2} | {collector.CpuPercent:F0} | {bare.CpuPercent:F0} | {simCpu} | " +
            $"{Math.Max(collector.PeakWorkingSetMb, bare.PeakWorkingSetMb):F0} | {collector.Percentile(0.5):F0}/{collector.Percentile(0.95):F0} | " +
            $"{bare.Percentile(0.5):F0}/{bare.Percentile(0.95):F0} | {loadBefore.Split(' ')[0]} | {Optional(collector.OthersCpuPercent)}/{Optional(bare.OthersCpuPercent)} |");
    }


    static string Optional(double? value) => value is { } v ? v.ToString("F0", CultureInfo.InvariantCulture) : "-";
}
