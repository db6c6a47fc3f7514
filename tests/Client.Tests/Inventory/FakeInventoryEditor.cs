using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Tests.Editing;

/// <summary>An inventory over a fixed list, or one whose reads fail.</summary>
public sealed class FakeInventoryEditor(Func<Task<IReadOnlyList<InstanceRegistration>>> list) : IInventoryEditor
{
    public static FakeInventoryEditor Of(params InstanceRegistration[] instances) => new(() => Task.FromResult<IReadOnlyList<InstanceRegistration>>(instances));
    public static FakeInventoryEditor Failing(string message) =>
        new(() => Task.FromException<IReadOnlyList<InstanceRegistration>>(new InvalidOperationException(message)));

    public static InstanceRegistration Instance(long id, string name) => new()
    {
        Id = id, Name = name, Host = name.ToLowerInvariant() + ".corp.example", CredentialName = "fleet_reader",
    };

    public Task<IReadOnlyList<InstanceRegistration>> ListAsync(CancellationToken cancellationToken) => list();

    public async Task<InstanceRegistration?> GetAsync(long id, CancellationToken cancellationToken) =>
        (await list()).FirstOrDefault(i => i.Id == id);

    public Task<InventoryResult> RegisterAsync(InstanceRegistration registration, CancellationToken cancellationToken) => throw new NotSupportedException();
    public Task<InventoryResult> UpdateAsync(InstanceRegistration registration, CancellationToken cancellationToken) => throw new NotSupportedException();
    public Task<IReadOnlyList<ImportRowResult>> ImportAsync(IReadOnlyList<InstanceRegistration> registrations, bool commit,
        CancellationToken cancellationToken) => throw new NotSupportedException();
    public Task RetireAsync(long id, CancellationToken cancellationToken) => throw new NotSupportedException();
    public Task<InstanceSnapshot> TestConnectionAsync(InstanceRegistration registration, CancellationToken cancellationToken) => throw new NotSupportedException();
}
