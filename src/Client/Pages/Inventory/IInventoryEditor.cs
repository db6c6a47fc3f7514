using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>What the inventory page reads and changes: register, edit, retire, and test a connection.</summary>
public interface IInventoryEditor
{
    Task<IReadOnlyList<InstanceRegistration>> ListAsync(CancellationToken cancellationToken);

    Task<InstanceRegistration?> GetAsync(long id, CancellationToken cancellationToken);

    /// <summary>Registers the instance; it is polled at once.</summary>
    Task<InventoryResult> RegisterAsync(InstanceRegistration registration, CancellationToken cancellationToken);

    Task<InventoryResult> UpdateAsync(InstanceRegistration registration, CancellationToken cancellationToken);

    /// <summary>
    /// Registers every registration or none (a CSV import), each by the rules of <see cref="RegisterAsync"/>; with
    /// <paramref name="commit"/> false nothing is stored, and the results are the import's preview.
    /// </summary>
    Task<IReadOnlyList<ImportRowResult>> ImportAsync(IReadOnlyList<InstanceRegistration> registrations, bool commit, CancellationToken cancellationToken);

    /// <summary>Stops polling the instance; its history stays.</summary>
    Task RetireAsync(long id, CancellationToken cancellationToken);

    /// <summary>Runs the collector's probes once against the settings given (registered or not) and stores nothing.</summary>
    Task<InstanceSnapshot> TestConnectionAsync(InstanceRegistration registration, CancellationToken cancellationToken);
}

/// <summary>One row of an import: its outcome, and when an earlier row of the same import is in the way, that row (0-based).</summary>
public sealed record ImportRowResult(InventoryResult Result, int? ConflictingRow);

/// <summary>
/// The outcome of a write: the instance id, or the field and message explaining why it was refused, and for a name or
/// server registered already, the page of the registration in the way.
/// </summary>
public sealed record InventoryResult(long? Id, string? Field, string? Error, string? ExistingLink = null)
{
    public bool Succeeded => Id is not null;
    public static InventoryResult Ok(long id) => new(id, null, null);
    public static InventoryResult Refused(string field, string error, string? existingLink = null) => new(null, field, error, existingLink);
}
