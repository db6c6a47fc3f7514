using System.Diagnostics;
using Dapper;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Store;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Ingestion from real standalone collectors (<c>--standalone-collectors N --collector-fleet M</c>): a new store of its
/// own (a sibling database on PostgreSQL) with M registrations, each pointed at a simulated instance of its own
/// (the simulator in its own process), the server with its embedded collector off, and N collector processes
/// (<c>src/Collector</c>, each with its own name, key and outbox) leasing, polling and delivering through the
/// collectors' API. Every instance is due at once, so the collectors poll as fast as they can; the figure is the
/// polls the store holds per second, counted in the store, with the CPU of each party.
/// </summary>
internal sealed class StandaloneCollectorsRun(BenchmarkOptions options, Report report, BenchmarkStore seeded)
{
    const string Credential = "bench";

    public async Task RunAsync()
    {
        var directory = Directory.CreateTempSubdirectory("ifi-dashboard-bench-collectors-").FullName;
        var store = await seeded.EmptySiblingAsync("collectors");
        var simulatorDll = Path.Combine(RepositoryRoot.Path, "src", "Simulator", "bin", options.Configuration, "net10.0", "IfiDashboard.Simulator.dll");
        var collectorDll = Path.Combine(RepositoryRoot.Path, "src", "Collector", "bin", options.Configuration, "net10.0", "IfiDashboard.Collector.dll");
        await using var simulator = await SimulatorProcess.StartAsync(simulatorDll, directory, options.CollectorFleet);
        await RegisterAsync(store, simulator.Ports);
        Console.WriteLine($"standalone collectors: {simulator.Ports.Count} simulated instances registered in {store.Description}");

        var collectors = CollectorKeys.Create("collector", options.StandaloneCollectors);
        var serverEnvironment = CollectorKeys.ServerEnvironment(options, collectors);
        using var http = new HttpClient { Timeout = TimeSpan.FromMinutes(10) };
        await using var server = await ServerProcess.StartAsync(RepositoryLayout.ServerDll(options.Configuration), directory, store.LogPath("collectors-server"),
            new Dictionary<string, string>(store.ServerSettings) { ["Collector:Enabled"] = "false" }, serverEnvironment, http, TimeSpan.FromMinutes(2));
        await new PageTimer(http, server.Address).GetAsync("/", Markers.Overview);

        var load = Machine.LoadAverage();
        var postgres = await store.ServerProcessIdAsync();
        var processes = collectors.Select(c => StartCollector(collectorDll, directory, server.Address, c.Name, c.Key)).ToList();
        try
        {
            // Collector processes take seconds to start (more on a loaded machine): the warm-up starts at the first stored poll.
            var started = Stopwatch.StartNew();
            while (await PollsAsync(store) == 0)
            {
                if (started.Elapsed > TimeSpan.FromMinutes(3) || processes.Any(p => p.HasExited))
                    throw new InvalidOperationException($"No poll stored within {started.Elapsed.TotalSeconds:F0} s; see the logs in {directory}.");
                await Task.Delay(TimeSpan.FromMilliseconds(250));
            }
            Console.WriteLine($"first poll stored {started.Elapsed.TotalSeconds:F1} s after the collectors started");
            var clock = Stopwatch.StartNew();
            var cpuAtStart = (Server: 0.0, Store: 0.0, Collectors: 0.0, Simulator: 0.0);
            long pollsAtStart = 0;
            var warmup = TimeSpan.FromSeconds(10);
            var measuring = false;
            var end = warmup + TimeSpan.FromSeconds(options.IngestSeconds);
            long stored = 0;
            (double Server, double Store, double Collectors, double Simulator) Cpu() => (
                ProcessCpu.Milliseconds(server.Pid), postgres is { } pid ? ProcessCpu.TreeMilliseconds(pid) : 0,
                processes.Sum(p => ProcessCpu.Milliseconds(p.Id)), ProcessCpu.Milliseconds(simulator.Pid));
            while (clock.Elapsed < end)
            {
                // Counted in the store once a second: a poll counts when its snapshot is committed.
                await Task.Delay(TimeSpan.FromSeconds(1));
                stored = await PollsAsync(store);
                if (!measuring && clock.Elapsed >= warmup)
                {
                    measuring = true;
                    pollsAtStart = stored;
                    cpuAtStart = Cpu();
                    clock.Restart();
                    end = TimeSpan.FromSeconds(options.IngestSeconds);
                }
                if (stored >= simulator.Ports.Count) break;
                if (processes.FirstOrDefault(p => p.HasExited) is { } exited)
                    throw new InvalidOperationException($"A collector exited with code {exited.ExitCode}; see {directory}.");
            }
            var seconds = clock.Elapsed.TotalSeconds;
            var cpu = Cpu();
            var rate = (stored - pollsAtStart) / seconds;
            var ms = seconds * 1000;
            Console.WriteLine($"{options.StandaloneCollectors} standalone collectors: {rate:F0} polls stored/s over {seconds:F0} s ({stored - pollsAtStart} polls)");
            report.Add($"ingestion from {options.StandaloneCollectors} standalone collector processes polling {simulator.Ports.Count} simulated instances (PostgreSQL)",
                $"{rate:F0} polls stored/s ({stored - pollsAtStart} in {seconds:F0} s after a {warmup.TotalSeconds:F0}-s warm-up)",
                Report.Verdict(rate >= 1000, "≥ 1,000/s"), load);
            report.Add($"CPU over those {seconds:F0} s (cores: 2)",
                $"collectors {(cpu.Collectors - cpuAtStart.Collectors) / ms:F2} · simulator {(cpu.Simulator - cpuAtStart.Simulator) / ms:F2} · " +
                $"server {(cpu.Server - cpuAtStart.Server) / ms:F2} · PostgreSQL {(cpu.Store - cpuAtStart.Store) / ms:F2} cores",
                "—", Machine.LoadAverage());
        }
        finally
        {
            foreach (var process in processes)
            {
                if (!process.HasExited) process.Kill(entireProcessTree: true);
                await process.WaitForExitAsync();
                process.Dispose();
            }
        }
        try { Directory.Delete(directory, recursive: true); } catch (IOException) { }
    }

    /// <summary>Through the import, as a CMDB load would: every instance due at once.</summary>
    async Task RegisterAsync(BenchmarkStore store, IReadOnlyList<int> ports)
    {
        await using var services = store.Services();
        await services.MigrateIfiStoreAsync();
        var inventory = services.GetRequiredService<InstanceInventory>();
        foreach (var chunk in ports.Select((port, i) => new InstanceRegistration
                 {
                     Name = $"sim-{i:D5}", Host = "127.0.0.1", Port = port, CredentialName = Credential, TrustServerCertificate = true,
                 }).Chunk(1000))
        {
            var imported = await inventory.ImportAsync(chunk, commit: true, CancellationToken.None);
            if (imported.FirstOrDefault(i => i.Write.Refusal is not null) is { Write.Refusal: { } refusal })
                throw new InvalidOperationException($"Registration refused: {refusal.Errors[0].Message}");
        }
    }

    Process StartCollector(string dll, string directory, Uri server, string name, string key)
    {
        var info = new ProcessStartInfo("dotnet") { WorkingDirectory = directory, UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        info.ArgumentList.Add(dll);
        info.Environment["DOTNET_ENVIRONMENT"] = "Production";
        info.Environment["Collector__Name"] = name;
        info.Environment["Collector__ServerUrl"] = server.ToString();
        info.Environment["Collector__ApiKey"] = key;
        info.Environment["Collector__Outbox__Directory"] = Path.Combine(directory, name + "-outbox");
        info.Environment[$"Credentials__{Credential}__UserId"] = SimulatorProcess.Login;
        info.Environment[$"Credentials__{Credential}__Password"] = SimulatorProcess.Password;
        info.Environment[$"Credentials__{Credential}__AllowedHosts__0"] = "127.0.0.1:1024-65535";
        info.Environment[$"Credentials__{Credential}__AllowTrustServerCertificate"] = "true";
        var log = new StreamWriter(Path.Combine(directory, name + ".log")) { AutoFlush = true };
        var process = new Process { StartInfo = info };
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) lock (log) log.WriteLine(e.Data); };
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) lock (log) log.WriteLine(e.Data); };
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return process;
    }

    static async Task<long> PollsAsync(BenchmarkStore store)
    {
        await using var connection = await store.OpenReadOnlyAsync();
        return await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM polls;");
    }
}
