using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Simulator.Hosting;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>A test server's simulated fleet registered as an operator would: by host, port and credential name.</summary>
internal static class SimulatedFleetRegistration
{
    public const string CredentialName = "fleet";

    /// <param name="pollIntervalSeconds">Null keeps the registration's default interval.</param>
    /// <param name="only">Registers only the simulated instances whose name it accepts; every one when null.</param>
    public static async Task RegisterAsync(IServiceProvider services, FleetSimulator fleet, int? pollIntervalSeconds = null, Func<string, bool>? only = null)
    {
        var repository = services.GetRequiredService<InstanceInventory>();
        foreach (var instance in fleet.Instances.Where(i => only?.Invoke(i.Name) ?? true))
        {
            var registration = new InstanceRegistration
            {
                Name = instance.Name,
                Host = "127.0.0.1",
                Port = instance.Port,
                Environment = instance.Scenario.Inventory?.Environment ?? "Production",
                Owner = instance.Scenario.Inventory?.Owner,
                Tags = instance.Scenario.Inventory?.Tags ?? [],
                TrustServerCertificate = true,
                CredentialName = CredentialName,
            };
            if (pollIntervalSeconds is { } seconds)
                registration = registration with { PollIntervalSeconds = seconds };
            await repository.AddAsync(registration, CancellationToken.None);
        }
    }

    /// <summary>The id of the active instance with this name.</summary>
    public static long IdOf(IServiceProvider services, string name) => services.GetRequiredService<InstanceInventory>()
        .ListActiveAsync(CancellationToken.None).GetAwaiter().GetResult().Single(i => i.Name == name).Id;
}
