using System.Diagnostics;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Store;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Policy;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Builds the benchmark's store through the server's own code: its migrations, <see cref="InstanceInventory"/> for
/// registration, <see cref="SnapshotStore"/> for every poll (growth events in per-poll batches, idempotent
/// ingestion and all) and <see cref="PolicyStore"/> for rules and waivers. Nothing is bulk-inserted behind its back.
/// Instances are registered a thousand at a time through the import (<see cref="InstanceInventory.ImportAsync"/>):
/// a single registration reads every active instance to look for a duplicate, which at 100,000 instances makes
/// one at a time quadratic. Each instance's polls are written in order; on PostgreSQL several instances at once
/// (<c>--seed-writers</c>), as several collectors would.
/// </summary>
internal sealed class StoreSeeder(BenchmarkOptions options, BenchmarkStore store)
{
    const int RegistrationBatch = 1000;

    public async Task<TimeSpan> BuildAsync(CancellationToken ct)
    {
        await store.CreateAsync();
        await using var services = store.Services();
        await services.MigrateIfiStoreAsync(ct);
        var repository = services.GetRequiredService<InstanceInventory>();
        var ingestion = services.GetRequiredService<SnapshotStore>();
        var policies = services.GetRequiredService<PolicyStore>();

        var now = DateTimeOffset.UtcNow;
        var random = new Random(options.Seed + 1);
        var clock = Stopwatch.StartNew();
        long polls = 0, events = 0, registered = 0;
        var waiverCandidates = new List<long>();
        var writers = new ParallelOptions { MaxDegreeOfParallelism = options.SeedWriters, CancellationToken = ct };
        foreach (var batch in SyntheticFleet.Create(options.Instances, options.Events, options.Seed, now, options.Days).Chunk(RegistrationBatch))
        {
            var imported = await repository.ImportAsync(batch.Select(Registration).ToList(), commit: true, ct);
            var plans = new List<InstanceSnapshot[]>(batch.Length);
            for (var i = 0; i < batch.Length; i++)
            {
                var instance = batch[i];
                var id = imported[i].Write.Record?.Registration.Id
                    ?? throw new InvalidOperationException($"Synthetic instance refused: {imported[i].Write.Refusal?.Errors[0].Message}");
                // Planned in fleet order from one random source, so the store's content does not depend on the writers.
                plans.Add(SnapshotPlan.For(instance, id, now, options.Days, random).ToArray());
                if (!instance.IfiEnabled && instance.LatestFailure is null && !instance.Tags.Contains("pci") && instance.Version.HasIfiColumn)
                    waiverCandidates.Add(id);
            }
            await Parallel.ForEachAsync(plans, writers, async (plan, token) =>
            {
                foreach (var snapshot in plan)
                    await ingestion.WriteAsync(snapshot, token);
                Interlocked.Add(ref polls, plan.Length);
                Interlocked.Add(ref events, plan.Sum(s => s.GrowthEvents.Count));
            });
            registered += batch.Length;
            Console.WriteLine($"  {registered} instances, {polls} polls, {events} growth events stored ({clock.Elapsed.TotalSeconds:F0} s)");
        }
        await SeedPolicyAsync(policies, waiverCandidates, now, ct);
        await store.SettleAsync($"{options.Instances} instances, {events} growth events, {options.Days} days, seed {options.Seed}");
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
}
