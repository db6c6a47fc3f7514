using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Tests;

/// <summary>Registering as the tests' setup does: through the inventory's one insert, failing the test on a refusal.</summary>
internal static class InventoryTestWrites
{
    public static async Task<long> AddAsync(this InstanceInventory inventory, InstanceRegistration registration, CancellationToken ct)
    {
        var write = await inventory.RegisterAsync(registration, ct);
        Assert.True(write.Result == InventoryWriteResult.Created, write.Refusal?.Errors.FirstOrDefault()?.Message ?? write.Result.ToString());
        return write.Record!.Registration.Id;
    }
}
