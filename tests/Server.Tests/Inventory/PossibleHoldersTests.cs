using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Tests.Store;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Tests.Inventory;

/// <summary>
/// A single write looks only at the instances that could hold its name or server, read by SQL; an import reads the
/// whole inventory. Both must refuse the same registrations for the same holder, whatever mix of addresses, machine
/// names, DNS domains, IPv6 brackets, ports, instance names and polled server names the inventory holds.
/// </summary>
public sealed class PossibleHoldersTests
{
    static readonly string[] Machines = ["sql07", "SQL07", "sql08", "sql1"];
    static readonly string[] Domains = ["emea.bank", "apac.bank", "EMEA.bank"];
    static readonly string[] Instances = ["REPORTING", "reporting", "SALES"];
    static readonly string[] Addresses = ["10.0.0.7", "10.0.0.70", "fd00::7", "[fd00::7]", "fd00::70"];

    static string RandomHost(Random random) => random.Next(3) switch
    {
        0 => Machines[random.Next(Machines.Length)],
        1 => $"{Machines[random.Next(Machines.Length)]}.{Domains[random.Next(Domains.Length)]}",
        _ => Addresses[random.Next(Addresses.Length)],
    };

    static InstanceRegistration RandomRegistration(Random random, int number)
    {
        var (port, instance) = random.Next(4) switch
        {
            0 => ((int?)null, (string?)null),
            1 => (1433, null),
            2 => (1500, null),
            _ => (null, Instances[random.Next(Instances.Length)]),
        };
        // A few names repeat (in other case), so that names are taken too.
        var name = random.Next(6) == 0 ? $"SQL-{random.Next(number + 1)}" : $"sql-{number}";
        return TestData.Registration(name) with { Host = RandomHost(random), Port = port, InstanceName = instance };
    }

    // A server's name is its machine's, unless someone renamed it (sp_addserver takes any name, a DNS name too).
    static string RandomServerName(Random random) => (random.Next(4) == 0
        ? $"{Machines[random.Next(Machines.Length)]}.{Domains[random.Next(Domains.Length)]}"
        : Machines[random.Next(Machines.Length)]).ToUpperInvariant() + (random.Next(2) == 0 ? "" : @"\" + Instances[random.Next(Instances.Length)]);

    static string Verdict(InventoryWrite write) => write.Refusal is { } refusal
        ? $"{refusal.Kind} by {refusal.Existing?.Id}"
        : write.Result.ToString();

    [Theory, StoreProviders(1, 2, 3)]
    public async Task A_single_registration_is_refused_exactly_when_an_import_reading_every_instance_refuses_it(StoreProvider provider, int seed)
    {
        // Pooled: the test writes and reads the store some 700 times.
        await using var store = await TestStore.CreatePooledAsync(provider);
        var random = new Random(seed);
        var at = TestStore.Start;
        // The inventory, written by the import, which checks against every active instance.
        for (var i = 0; i < 40; i++)
        {
            var (write, _) = (await store.Instances.ImportAsync([RandomRegistration(random, i)], commit: true, CancellationToken.None)).Single();
            if (write.Record is not { } created || random.Next(2) == 0) continue;
            at = at.AddMinutes(1);
            var polled = TestData.Good(created.Registration.Id, at);
            await store.Snapshots.WriteAsync(polled with { Identity = polled.Identity! with { ServerName = RandomServerName(random) } },
                CancellationToken.None);
        }

        var verdicts = new List<(string Import, string Single)>();
        for (var i = 100; i < 260; i++)
        {
            var probe = RandomRegistration(random, i);
            var (byImport, _) = (await store.Instances.ImportAsync([probe], commit: false, CancellationToken.None)).Single();
            var single = await store.Instances.RegisterAsync(probe, CancellationToken.None);
            verdicts.Add((Verdict(byImport), Verdict(single)));
            // Back to the inventory the import saw, for the next probe.
            if (single.Record is { } created)
                Assert.True(await store.Instances.RetireAsync(created.Registration.Id, CancellationToken.None));
        }

        Assert.All(verdicts, v => Assert.Equal(v.Import, v.Single));
        // The probes went through every outcome, or the comparison would prove little.
        var kinds = verdicts.Select(v => v.Import.Split(' ')[0]).ToHashSet();
        Assert.Superset(new HashSet<string> { "Created", "NameTaken", "ServerTaken" }, kinds);
    }
}
