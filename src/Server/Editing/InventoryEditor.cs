using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Store;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Editing;

/// <summary>
/// The dashboard's side of <see cref="InstanceInventory"/>, which owns the rules, the writes and their announcement. A
/// busy store refuses a change with <see cref="StoreBusyException"/>, whose message the page shows.
/// </summary>
public sealed class InventoryEditor(
    InstanceInventory instances,
    ConnectionStringFactory connectionStrings,
    CollectorOptions collectorOptions,
    ConnectionTestLimits testLimits,
    AuditLog audit,
    BulkRegistrationLimits bulkLimits,
    TimeProvider time) : IInventoryEditor
{
    public Task<IReadOnlyList<InstanceRegistration>> ListAsync(CancellationToken cancellationToken) =>
        instances.ListActiveAsync(cancellationToken);

    public Task<InstanceRegistration?> GetAsync(long id, CancellationToken cancellationToken) =>
        instances.GetAsync(id, cancellationToken);

    public async Task<InventoryResult> RegisterAsync(InstanceRegistration registration, CancellationToken cancellationToken) =>
        Result(await StoreBusy.ForPersonAsync(() => instances.RegisterAsync(registration, cancellationToken)), registration);

    public async Task<InventoryResult> UpdateAsync(InstanceRegistration registration, CancellationToken cancellationToken) =>
        Result(await StoreBusy.ForPersonAsync(() => instances.UpdateAsync(registration, cancellationToken)), registration);

    public async Task<IReadOnlyList<ImportRowResult>> ImportAsync(IReadOnlyList<InstanceRegistration> registrations, bool commit,
        CancellationToken cancellationToken)
    {
        if (commit) bulkLimits.Acquire();
        return (await StoreBusy.ForPersonAsync(() => instances.ImportAsync(registrations, commit, cancellationToken)))
            .Select((row, i) => new ImportRowResult(Result(row.Write, registrations[i]), row.ConflictingRow)).ToList();
    }

    public async Task RetireAsync(long id, CancellationToken cancellationToken) =>
        await StoreBusy.ForPersonAsync(() => instances.RetireAsync(id, cancellationToken));

    /// <summary>The form shows one message, beside the first field refused, with a link to the registration in the way.</summary>
    static InventoryResult Result(InventoryWrite write, InstanceRegistration registration) => write switch
    {
        { Refusal: { Errors: [var first, ..] } refusal } => InventoryResult.Refused(first.Field, first.Message, refusal.ExistingLink),
        { Result: InventoryWriteResult.NotFound } => InventoryResult.Refused("id", $"No active instance has id {registration.Id}."),
        _ => InventoryResult.Ok(write.Record!.Registration.Id),
    };

    public async Task<InstanceSnapshot> TestConnectionAsync(InstanceRegistration registration, CancellationToken cancellationToken)
    {
        if (InstanceRules.Check(registration) is [var refused, ..])
            return new InstanceSnapshot
            {
                SnapshotId = Guid.NewGuid(), InstanceId = registration.Id, StartedAt = time.GetUtcNow(), FinishedAt = time.GetUtcNow(),
                CollectorName = "test-connection",
                Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.ProtocolError, $"{refused.Field}: {refused.Message}")],
            };
        testLimits.Acquire();
        // A test is not a poll: nothing is stored, and a prober of its own leaves the polls' growth watermarks alone.
        var prober = new InstanceProber(connectionStrings, collectorOptions, new GrowthWatermarks(), time);
        var result = testLimits.Redact(await prober.PollAsync(registration, cancellationToken), registration.Host, registration.Port);
        // It sends a credential somewhere, so it is audited like a change: who, where to, with what, and how it ended.
        var connect = result.Probes.FirstOrDefault(p => p.Probe == ProbeNames.Connect);
        await StoreBusy.ForPersonAsync(() => audit.RecordAsync(AuditActions.ConnectionTested,
            registration.Id > 0 ? InstanceInventory.Target(registration.Id, registration.Name) : $"unsaved instance ({registration.Name})", null, new
            {
                registration.Host, registration.Port, registration.InstanceName, registration.Encrypt,
                registration.TrustServerCertificate, registration.HostNameInCertificate, registration.ServerCertificatePath,
                registration.CredentialName, outcome = connect?.Outcome,
            }, CancellationToken.None));
        return result;
    }
}
