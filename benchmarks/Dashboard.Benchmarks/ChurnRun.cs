using Dapper;
using IfiDashboard.Store;
using IfiDashboard.Store.Ingestion;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// The server's CPU while a share of the fleet changes every minute (issue 16: assessment CPU ≤ 2 % of a core while 1 %
/// of the instances change per minute). The collector-off server runs on a copy of the store; its CPU time
/// (/proc/PID/stat) is read over quiet minutes, then over minutes in which this process stores the next poll of a
/// random share of the instances through <see cref="SnapshotStore"/>, as a collector's snapshots would be stored.
/// The server's own minute build finds them changed and reassesses them.
/// </summary>
internal sealed class ChurnRun(BenchmarkOptions options, Report report)
{
    const double TargetPercentOfCore = 2;

    public async Task RunAsync()
    {
        var (directory, copy) = SqliteBenchmarkStore.CopyToTemp(options.StorePath, "churn");

        using var http = new HttpClient { Timeout = TimeSpan.FromMinutes(10) };
        await using var server = await ServerProcess.StartAsync(RepositoryLayout.ServerDll(options.Configuration), directory,
            Path.ChangeExtension(options.StorePath, ".churn-server.log"),
            new Dictionary<string, string>
            {
                ["Store:ConnectionString"] = $"Data Source={copy}",
                ["Collector:Enabled"] = "false",
            }, options.ServerEnvironment, http, TimeSpan.FromMinutes(2));
        await new PageTimer(http, server.Address).GetAsync("/", Markers.Overview);
        // The first minutes after start do once-a-day work (the daily compliance record, retention): not churn.
        Console.WriteLine($"churn run: server pid {server.Pid} assessed the fleet; settling {options.ChurnSettleSeconds} s");
        await Task.Delay(TimeSpan.FromSeconds(options.ChurnSettleSeconds));

        var quiet = await MeasureAsync(server, minutes: options.ChurnMinutes, write: null);
        Console.WriteLine($"churn run: quiet, {quiet.PercentOfCore:F2} % of a core over {options.ChurnMinutes} min");
        report.Add($"server CPU, collector off, nothing changing ({options.ChurnMinutes} min)",
            $"{quiet.PercentOfCore:F2} % of a core ({quiet.CpuSeconds:F1} s CPU)", "—", quiet.Load);

        await using var services = new SqliteBenchmarkStore(copy).Services();
        var snapshots = services.GetRequiredService<SnapshotStore>();
        List<(long Id, string Name)> active;
        await using (var connection = await services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
            active = (await connection.QueryAsync<(long, string)>("SELECT id, name FROM instances WHERE retired_at IS NULL;")).ToList();
        var byName = SyntheticFleet.Create(options.Instances, options.Events, options.Seed, DateTimeOffset.UtcNow, options.Days)
            .ToDictionary(i => i.Name);
        var perMinute = Math.Max(1, (int)Math.Round(active.Count * options.ChurnPercent / 100));
        var random = new Random(options.Seed + 3);
        var written = 0;
        async Task WriteMinuteAsync()
        {
            foreach (var (id, name) in active.OrderBy(_ => random.Next()).Take(perMinute))
            {
                await snapshots.WriteAsync(SnapshotPlan.Next(byName[name], id, DateTimeOffset.UtcNow, random), CancellationToken.None);
                written++;
            }
        }
        var churn = await MeasureAsync(server, minutes: options.ChurnMinutes, write: WriteMinuteAsync);
        Console.WriteLine($"churn run: {written} polls stored ({perMinute} a minute), {churn.PercentOfCore:F2} % of a core over {options.ChurnMinutes} min");
        report.Add($"server CPU, collector off, {options.ChurnPercent:0.##} % of {active.Count} instances with a new poll each minute ({options.ChurnMinutes} min)",
            $"{churn.PercentOfCore:F2} % of a core ({churn.CpuSeconds:F1} s CPU, {written} polls)",
            Report.Verdict(churn.PercentOfCore <= TargetPercentOfCore, $"≤ {TargetPercentOfCore:0} % of a core"), churn.Load);
        var memory = server.Memory();
        report.Add("server RSS at the end of the churn run", $"{memory.RssMb:F0} MB now · {memory.PeakRssMb:F0} MB peak", "—",
            Machine.LoadAverage());

        await server.DisposeAsync();
        await services.DisposeAsync();
        SqliteConnection.ClearAllPools();
        try { Directory.Delete(directory, recursive: true); } catch (IOException) { }
    }

    /// <summary>The server's CPU over whole minutes; <paramref name="write"/>, when given, runs at the start of each.</summary>
    static async Task<(double PercentOfCore, double CpuSeconds, string Load)> MeasureAsync(ServerProcess server, int minutes,
        Func<Task>? write)
    {
        var load = Machine.LoadAverage();
        var cpuBefore = ProcessCpu.Milliseconds(server.Pid);
        var started = DateTimeOffset.UtcNow;
        for (var minute = 1; minute <= minutes; minute++)
        {
            if (write is not null) await write();
            var until = started.AddMinutes(minute) - DateTimeOffset.UtcNow;
            if (until > TimeSpan.Zero) await Task.Delay(until);
        }
        var cpuSeconds = (ProcessCpu.Milliseconds(server.Pid) - cpuBefore) / 1000;
        var wallSeconds = (DateTimeOffset.UtcNow - started).TotalSeconds;
        return (cpuSeconds / wallSeconds * 100, cpuSeconds, load);
    }
}
