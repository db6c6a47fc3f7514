using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;
using IfiDashboard.Shared.Alerts;
using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>Silences on both stores: stored and audited together, in force until they end or expire, ended once.</summary>
public sealed class AlertSilenceStoreTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static AlertSilence Snooze(TestStore store, long instanceId, TimeSpan length) => new()
    {
        Kind = SilenceKind.Snooze, InstanceId = instanceId, Reason = "CHG-1234 storage migration", CreatedBy = "alice@corp.example",
        CreatedAt = store.Clock.GetUtcNow(), ExpiresAt = store.Clock.GetUtcNow() + length,
    };

    [Theory, StoreProviders]
    public async Task A_silence_is_in_force_until_it_expires_and_its_creation_is_audited_with_it(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var instanceId = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var silences = new AlertSilenceStore(store.Connections, store.Clock, store.Audit);

        var id = await silences.AddAsync(Snooze(store, instanceId, TimeSpan.FromHours(4)), None);
        var tag = await silences.AddAsync(new AlertSilence
        {
            Kind = SilenceKind.Silence, Tag = "pci", Reason = "audit freeze", CreatedBy = "bob",
            CreatedAt = store.Clock.GetUtcNow(), ExpiresAt = store.Clock.GetUtcNow().AddDays(2),
        }, None);
        var active = await silences.ListActiveAsync(None);
        store.Clock.Advance(TimeSpan.FromHours(4));
        var later = await silences.ListActiveAsync(None);

        Assert.Equal([id, tag], active.Select(s => s.Id));
        Assert.Equal((instanceId, "CHG-1234 storage migration", "alice@corp.example"), (active[0].InstanceId, active[0].Reason, active[0].CreatedBy));
        Assert.Equal(TestStore.Start.AddHours(4), active[0].ExpiresAt);
        Assert.Equal([tag], later.Select(s => s.Id));
        var audit = await store.Audit.QueryAsync(new AuditFilter(), null, 10, None);
        Assert.Equal([AuditActions.AlertSilenced, AuditActions.AlertSnoozed, AuditActions.InstanceRegistered], audit.Select(e => e.Action));
        Assert.Equal($"silence {id} (instance #{instanceId})", audit[1].Target);
    }

    [Theory, StoreProviders]
    public async Task Ending_a_silence_works_once_and_not_on_an_expired_one(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var instanceId = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var silences = new AlertSilenceStore(store.Connections, store.Clock, store.Audit);
        var id = await silences.AddAsync(Snooze(store, instanceId, TimeSpan.FromHours(4)), None);
        var shortOne = await silences.AddAsync(Snooze(store, instanceId, TimeSpan.FromMinutes(5)), None);

        var ended = await silences.EndAsync(id, "carol", None);
        var again = await silences.EndAsync(id, "carol", None);
        store.Clock.Advance(TimeSpan.FromMinutes(5));
        var expired = await silences.EndAsync(shortOne, "carol", None);

        Assert.Equal((true, false, false), (ended, again, expired));
        Assert.Empty(await silences.ListActiveAsync(None));
        var endedRow = Assert.Single(await silences.FindAsync([id], None));
        Assert.Equal(("carol", TestStore.Start), (endedRow.EndedBy, endedRow.EndedAt));
        var audit = await store.Audit.QueryAsync(new AuditFilter(Action: AuditActions.AlertSilenceEnded), null, 10, None);
        Assert.Contains("\"endedBy\":\"carol\"", Assert.Single(audit).After, StringComparison.Ordinal);
    }

    [Theory, StoreProviders]
    public async Task An_evaluation_ends_the_acknowledgements_it_resolves_and_records_silenced_alerts_unsent(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var instanceId = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var silences = new AlertSilenceStore(store.Connections, store.Clock, store.Audit);
        var states = new AlertStateStore(store.Connections, store.Clock, silences);
        var outbox = new OutboxStore(store.Connections, store.Clock);
        var ackId = await silences.AddAsync(Snooze(store, instanceId, TimeSpan.FromDays(30)) with { Kind = SilenceKind.Acknowledgement }, None);
        IReadOnlyList<AlertSilence> seen = [];

        var written = await states.EvaluateAsync((_, _, active) =>
        {
            seen = active;
            var plan = new AlertPlan([], [], [], [], active.Where(s => s.Kind == SilenceKind.Acknowledgement).ToList());
            var message = new OutboxMessage("Opened:test", AlertNoticeKind.Opened, instanceId, "SQL01", AlertRule.NonCompliant,
                ["dba@corp.example"], new IfiDashboard.Store.Alerts.Mail.AlertMailContent("[IFI] IFI off on SQL01 (Production)", "text", "<p>html</p>"), ackId);
            return (plan, [message]);
        }, None);

        Assert.Equal(ackId, Assert.Single(seen).Id);
        Assert.Equal(1, written);
        Assert.Equal(AlertSilenceStore.Resolved, Assert.Single(await silences.FindAsync([ackId], None)).EndedBy);
        var row = Assert.Single(await outbox.RecentAsync(10, None));
        Assert.Equal((OutboxStatus.Silenced, ackId, (DateTimeOffset?)null), (row.Status, row.SilenceId, row.NextAttemptAt));
        Assert.Null(await outbox.ClaimNextAsync(TimeSpan.FromMinutes(1), None));
    }
}
