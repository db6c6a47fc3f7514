using System.Diagnostics;
using Dapper;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Server.Store;
using IfiDashboard.Server.Store.Ingestion;
using IfiDashboard.Server.Store.Inventory;
using IfiDashboard.Server.Store.Policy;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Builds the benchmark's store through the server's own code: its migrations, <see cref="InstanceInventory"/> for
/// registration, <see cref="SnapshotStore"/> for every poll (growth events in per-poll batches, idempotent
/// ingestion and all) and <see cref="PolicyStore"/> for rules and waivers. Nothing is bulk-inserted behind its back.
/// </summary>
internal sealed class StoreSeeder(BenchmarkOptions options)
{
    public async Task<TimeSpan> BuildAsync(CancellationToken ct)
    {
        await using var services = Services(options.StorePath);
        await services.MigrateIfiStoreAsync(ct);
        var repository = services.GetRequiredService<InstanceInventory>();
        var ingestion = services.GetRequiredService<SnapshotStore>();
        var policies = services.GetRequiredService<PolicyStore>();

        var now = DateTimeOffset.UtcNow;
        var random = new Random(options.Seed + 1);
        var clock = Stopwatch.StartNew();
        long polls = 0, events = 0;
        var waiverCandidates = new List<long>();
        foreach (var instance in SyntheticFleet.Create(options.Instances, options.Events, options.Seed, now, options.Days))
        {
            var registered = await repository.RegisterAsync(Registration(instance), ct);
            var id = registered.Record?.Registration.Id
                ?? throw new InvalidOperationException($"Synthetic instance refused: {registered.Refusal?.Errors[0].Message}");
            foreach (var snapshot in SnapshotPlan.For(instance, id, now, options.Days, random))
            {
                await ingestion.WriteAsync(snapshot, ct);
                polls++;
                events += snapshot.GrowthEvents.Count;
            }
            if (!instance.IfiEnabled && instance.LatestFailure is null && !instance.Tags.Contains("pci") && instance.Version.HasIfiColumn)
                waiverCandidates.Add(id);
            if ((instance.Index + 1) % 1000 == 0)
                Console.WriteLine($"  {instance.Index + 1} instances, {polls} polls, {events} growth events stored ({clock.Elapsed.TotalSeconds:F0} s)");
        }
        await SeedPolicyAsync(policies, waiverCandidates, now, ct);
        await CheckpointAsync(services, ct);
        return clock.Elapsed;
    }

    static InstanceRegistration Registration(SyntheticInstance instance) => new()
    {
        Name = instance.Name,
        Host = instance.Host,
        // A named instance is found through the SQL Browser, a default one on 1433: the inventory takes one or the other.
        Port = instance.InstanceName is null ? 1433 : null,
        InstanceName = instance.InstanceName,
        Environment = instance.Environment,
        Owner = instance.Owner,
        Tags = instance.Tags,
        CredentialName = "fleet_reader",
    };

    /// <summary>PCI hosts forbid IFI, everything else requires it; one in a hundred IFI-less instances has a waiver, a third of them expired.</summary>
    static async Task SeedPolicyAsync(PolicyStore policies, List<long> candidates, DateTimeOffset now, CancellationToken ct)
    {
        await policies.SaveRulesAsync(
        [
            new PolicyRule { Name = "PCI hosts forbid IFI", Desired = DesiredState.Forbidden, Tags = ["pci"] },
            new PolicyRule { Name = "Everything else requires IFI", Desired = DesiredState.Required },
        ], "dashboard-benchmark", ct);
        for (var i = 0; i < candidates.Count; i += 100)
            await policies.GrantWaiverAsync(new Waiver
            {
                InstanceId = candidates[i], Reason = "Account change waits for the vendor's window", Author = "dba-core",
                GrantedAt = now.AddDays(-20), ExpiresAt = i % 300 == 0 ? now.AddDays(-2) : now.AddDays(25),
            }, ct);
    }

    /// <summary>
    /// Folds the WAL into the database file so the server starts on a settled store. No ANALYZE: the server never
    /// runs one, so its queries must be measured with the plans a real store gets.
    /// </summary>
    static async Task CheckpointAsync(IServiceProvider services, CancellationToken ct)
    {
        await using var connection = await services.GetRequiredService<IDbConnectionFactory>().OpenAsync(ct);
        await connection.ExecuteAsync(new CommandDefinition("PRAGMA wal_checkpoint(TRUNCATE);", cancellationToken: ct));
    }

    public static ServiceProvider Services(string path)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["Store:ConnectionString"] = $"Data Source={path}" })
            .Build();
        var services = new ServiceCollection();
        services.AddIfiStore(configuration);
        services.AddSingleton<PolicyStore>();
        return services.BuildServiceProvider();
    }
}
