using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Server.Store;
using IfiDashboard.Server.Store.Inventory;
using IfiDashboard.Shared.Dashboard;
using IfiDashboard.Shared.Editing;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Editing;

/// <summary>
/// Inventory changes from the dashboard, with the same field rules everywhere. A busy store refuses a change with
/// <see cref="IfiDashboard.Shared.Editing.StoreBusyException"/>, whose message the page shows.
/// </summary>
public sealed class InventoryEditor(
    InstanceRepository instances,
    ConnectionStringFactory connectionStrings,
    CollectorOptions collectorOptions,
    FleetChanges changes,
    ConnectionTestLimits testLimits,
    TimeProvider time) : IInventoryEditor
{
    /// <summary>The form shows one message, beside the first field that breaks <see cref="InstanceRules"/>.</summary>
    static InventoryResult? FirstBrokenRule(InstanceRegistration registration) =>
        InstanceRules.Check(registration) is [var first, ..] ? InventoryResult.Refused(first.Field, first.Message) : null;

    public Task<IReadOnlyList<InstanceRegistration>> ListAsync(CancellationToken cancellationToken) =>
        instances.ListActiveAsync(cancellationToken);

    public Task<InstanceRegistration?> GetAsync(long id, CancellationToken cancellationToken) =>
        instances.GetAsync(id, cancellationToken);

    public async Task<InventoryResult> RegisterAsync(InstanceRegistration registration, CancellationToken cancellationToken)
    {
        if (FirstBrokenRule(registration) is { } refused) return refused;
        try
        {
            var id = await StoreBusy.ForPersonAsync(() => instances.AddAsync(registration, cancellationToken));
            changes.Publish();
            return InventoryResult.Ok(id);
        }
        catch (DuplicateInstanceException)
        {
            return InventoryResult.Refused("name", $"An active instance is already named '{registration.Name}'.");
        }
        catch (DuplicateServerException duplicate)
        {
            return InventoryResult.Refused("host", duplicate.Message);
        }
    }

    public async Task<InventoryResult> UpdateAsync(InstanceRegistration registration, CancellationToken cancellationToken)
    {
        if (FirstBrokenRule(registration) is { } refused) return refused;
        try
        {
            if (!await StoreBusy.ForPersonAsync(() => instances.UpdateAsync(registration, cancellationToken)))
                return InventoryResult.Refused("id", $"No active instance has id {registration.Id}.");
            changes.Publish();
            return InventoryResult.Ok(registration.Id);
        }
        catch (DuplicateInstanceException)
        {
            return InventoryResult.Refused("name", $"An active instance is already named '{registration.Name}'.");
        }
        catch (DuplicateServerException duplicate)
        {
            return InventoryResult.Refused("host", duplicate.Message);
        }
    }

    public async Task RetireAsync(long id, CancellationToken cancellationToken)
    {
        await StoreBusy.ForPersonAsync(() => instances.RetireAsync(id, time.GetUtcNow(), cancellationToken));
        changes.Publish();
    }

    public async Task<InstanceSnapshot> TestConnectionAsync(InstanceRegistration registration, CancellationToken cancellationToken)
    {
        if (FirstBrokenRule(registration) is { } refused)
            return new InstanceSnapshot
            {
                SnapshotId = Guid.NewGuid(), InstanceId = registration.Id, StartedAt = time.GetUtcNow(), FinishedAt = time.GetUtcNow(),
                CollectorName = "test-connection",
                Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.ProtocolError, $"{refused.Field}: {refused.Error}")],
            };
        testLimits.Acquire();
        // A test is not a poll: nothing is stored, and a prober of its own leaves the polls' growth watermarks alone.
        var prober = new InstanceProber(connectionStrings, collectorOptions, new GrowthWatermarks(), time);
        return testLimits.Redact(await prober.PollAsync(registration, cancellationToken), registration.Host, registration.Port);
    }
}
