using IfiDashboard.Compliance.Policy;
using IfiDashboard.Store.Policy;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Demo;

/// <summary>
/// The policy a demo starts with, seeded once into an empty store: PCI hosts forbid IFI (zeroing protects deleted
/// cardholder data), Windows and Linux ones by rules of their own (platform selectors), everything else requires it; one instance has a waiver in force and one a waiver that expired.
/// </summary>
internal static class DemoPolicy
{
    public static async Task SeedAsync(PolicyStore policies, IReadOnlyDictionary<string, long> ids, Scenario scenario,
        DateTimeOffset now, CancellationToken ct)
    {
        if ((await policies.GetCurrentAsync(ct)).Version > 0) return;
        await policies.SaveRulesAsync(
        [
            new PolicyRule { Name = "Windows PCI hosts forbid IFI", Desired = DesiredState.Forbidden, Tags = ["pci"], Platforms = [PolicyPlatform.Windows] },
            // Kept apart so that the page can tell Linux's case (the rule protects nothing there; trace flag 1806 keeps it).
            new PolicyRule { Name = "Linux PCI hosts forbid IFI (trace flag 1806)", Desired = DesiredState.Forbidden, Tags = ["pci"], Platforms = [PolicyPlatform.Linux] },
            new PolicyRule { Name = "Everything else requires IFI", Desired = DesiredState.Required },
        ], "demo", ct);

        // Two healthy instances without IFI that the rules require it on.
        var candidates = scenario.Instances
            .Where(i => !i.IfiEnabled && i.Faults.ErrorNumber == 0 && !i.Faults.RefuseConnections && !i.Faults.HangInPreLogin
                        && i.Logins.Count == 0 && i.Profile is "2019" or "2022" or "2017"
                        && !(i.Inventory?.Tags.Contains("pci") ?? false))
            .Select(i => ids[i.Name])
            .Take(2)
            .ToList();
        if (candidates.Count > 0)
            await policies.GrantWaiverAsync(new Waiver
            {
                InstanceId = candidates[0], Reason = "Account change waits for the vendor's support window (CHG-4711)",
                Author = "dba-core", GrantedAt = now.AddDays(-10), ExpiresAt = now.AddDays(20),
            }, ct);
        if (candidates.Count > 1)
            await policies.GrantWaiverAsync(new Waiver
            {
                InstanceId = candidates[1], Reason = "Temporary during storage migration",
                Author = "dba-core", GrantedAt = now.AddDays(-40), ExpiresAt = now.AddDays(-1),
            }, ct);
    }
}
