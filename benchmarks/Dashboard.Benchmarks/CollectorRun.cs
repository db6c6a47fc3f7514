using System.Diagnostics;
using Dapper;
using IfiDashboard.Store.Inventory;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Server plus embedded collector at full inventory: a copy of the benchmark store whose registrations are pointed
/// (in one transaction, <see cref="RetargetAsync"/>) at a simulated fleet, one simulated instance per registration
/// (<c>--collector-fleet 10000</c>: the collector polls 10,000 registrations while the pages and the assessment run as
/// before; a smaller fleet retires the registrations beyond it).
/// </summary>
internal sealed class CollectorRun(BenchmarkOptions options, Report report)
{
    const string CollectorName = "dashboard-benchmark-collector";
    /// <summary>Issue 16's target for the server with the embedded collector at 10,000 instances (DESIGN.md's was 300 MB).</summary>
    const double PeakRssTargetMb = 250;

    public async Task RunAsync()
    {
        var (directory, copy) = SqliteBenchmarkStore.CopyToTemp(options.StorePath, "collector");

        var simulatorDll = Path.Combine(RepositoryRoot.Path, "src", "Simulator", "bin", options.Configuration, "net10.0", "IfiDashboard.Simulator.dll");
        await using var simulator = await SimulatorProcess.StartAsync(simulatorDll, directory, options.CollectorFleet);
        var retargeted = await RetargetAsync(copy, simulator.Ports);
        Console.WriteLine($"collector run: {retargeted} registrations pointed at {simulator.Ports.Count} simulated instances");

        using var http = new HttpClient { Timeout = TimeSpan.FromMinutes(10) };
        var load = Machine.LoadAverage();
        await using var server = await ServerProcess.StartAsync(RepositoryLayout.ServerDll(options.Configuration), directory,
            Path.ChangeExtension(options.StorePath, ".collector-server.log"),
            new Dictionary<string, string>
            {
                ["Store:ConnectionString"] = $"Data Source={copy}",
                ["Collector:Enabled"] = "true",
                ["Collector:Name"] = CollectorName,
                ["Credentials:bench:UserId"] = SimulatorProcess.Login,
                ["Credentials:bench:Password"] = SimulatorProcess.Password,
                ["Credentials:bench:AllowedHosts:0"] = "127.0.0.1:1024-65535",
                ["Credentials:bench:AllowTrustServerCertificate"] = "true",
            }, options.ServerEnvironment, http, TimeSpan.FromMinutes(2));
        var timer = new PageTimer(http, server.Address);
        await timer.GetAsync("/", Markers.Overview);

        // The collector works through the due registrations while the assessment is rebuilt after each burst.
        var window = Stopwatch.StartNew();
        while (window.Elapsed < TimeSpan.FromSeconds(options.CollectorSeconds))
            await Task.Delay(1000);
        var memory = server.Memory();
        var polls = await PollsAsync(copy);
        Console.WriteLine($"collector run: {polls} polls in {window.Elapsed.TotalSeconds:F0} s; RSS {memory.RssMb:F0} MB, peak {memory.PeakRssMb:F0} MB");
        report.Add($"server + embedded collector RSS ({retargeted} registrations, {simulator.Ports.Count} simulated instances, {polls} polls in {window.Elapsed.TotalSeconds:F0} s)",
            $"{memory.RssMb:F0} MB now · {memory.PeakRssMb:F0} MB peak", Report.Verdict(memory.PeakRssMb <= PeakRssTargetMb, $"≤ {PeakRssTargetMb:F0} MB"), load);

        foreach (var path in new[] { "/", "/instances" })
        {
            load = Machine.LoadAverage();
            var page = await timer.MeasureAsync(path, path == "/" ? Markers.Overview : Markers.Grid, options.Warmup, options.Requests);
            Console.WriteLine($"GET {path} with the collector running: p50 {page.P50:F1} ms, p95 {page.P95:F1} ms, max {page.Max:F1} ms");
            report.Page(page with { Page = $"{path} (collector polling)" }, load);
        }
        var after = server.Memory();
        report.Add("server + embedded collector RSS after the page requests", $"{after.RssMb:F0} MB now · {after.PeakRssMb:F0} MB peak",
            Report.Verdict(after.PeakRssMb <= PeakRssTargetMb, $"≤ {PeakRssTargetMb:F0} MB"), Machine.LoadAverage());

        await server.DisposeAsync();
        SqliteConnection.ClearAllPools();
        try { Directory.Delete(directory, recursive: true); } catch (IOException) { }
    }

    /// <summary>
    /// Points each registration at a simulated instance of its own, in one transaction of set-based statements: the
    /// inventory refuses a second registration of one server (the same host and port), so registrations beyond the
    /// simulated fleet are retired in the copy. It writes the copy's rows directly, as the form's update would leave
    /// them (due for a poll at once, the version moved on), without an audit or journal entry per registration:
    /// through <see cref="InstanceInventory.UpdateAsync"/>, one at a time, 10,000 took 19 to 45 minutes under load.
    /// </summary>
    static async Task<int> RetargetAsync(string store, IReadOnlyList<int> ports)
    {
        await using (var services = new SqliteBenchmarkStore(store).Services())
            await services.GetRequiredService<InstanceInventory>().ListActiveAsync(CancellationToken.None); // migrated, as the server will find it
        SqliteConnection.ClearAllPools();

        await using var connection = new SqliteConnection($"Data Source={store};Pooling=False");
        await connection.OpenAsync();
        await using var tx = await connection.BeginTransactionAsync();
        await connection.ExecuteAsync("CREATE TEMP TABLE simulated (ordinal INTEGER PRIMARY KEY, port INTEGER NOT NULL);", transaction: tx);
        await connection.ExecuteAsync("INSERT INTO simulated (ordinal, port) VALUES (@ordinal, @port);",
            ports.Select((port, ordinal) => new { ordinal, port }), tx);
        // Registrations in the inventory's own order (ListActiveAsync), numbered from 0, each meets the port of that number.
        const string numbered = """
            WITH numbered AS (
                SELECT id, row_number() OVER (ORDER BY lower(name), id) - 1 AS ordinal FROM instances WHERE retired_at IS NULL)
            """;
        var now = DateTimeOffset.UtcNow;
        await connection.ExecuteAsync($"""
            {numbered}
            UPDATE instances
            SET retired_at = @now, lease_owner = NULL, lease_expires_at = NULL, version = version + 1, updated_at = @now
            WHERE id IN (SELECT id FROM numbered WHERE ordinal >= @count);
            """, new { now, count = ports.Count }, tx);
        var retargeted = await connection.ExecuteAsync($"""
            {numbered}
            UPDATE instances
            SET host = '127.0.0.1', port = simulated.port, instance_name = NULL, trust_server_certificate = 1,
                credential_name = 'bench', version = instances.version + 1, updated_at = @now, next_poll_at = NULL
            FROM numbered JOIN simulated ON simulated.ordinal = numbered.ordinal
            WHERE instances.id = numbered.id;
            """, new { now }, tx);
        await tx.CommitAsync();
        return retargeted;
    }

    static async Task<long> PollsAsync(string store)
    {
        await using var connection = new SqliteConnection($"Data Source={store};Mode=ReadOnly;Pooling=False");
        await connection.OpenAsync();
        return await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM polls WHERE collector_name = @name;", new { name = CollectorName });
    }
}
