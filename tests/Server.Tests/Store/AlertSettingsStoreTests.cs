using IfiDashboard.Server.Alerts;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>Alert settings changed in the dashboard, on both stores: stored over the configuration, audited with before and after.</summary>
public sealed class AlertSettingsStoreTests
{
    static readonly CancellationToken None = CancellationToken.None;

    [Theory, StoreProviders]
    public async Task Saved_settings_override_the_configuration_and_each_save_is_audited_with_the_values_before(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var settings = new AlertSettingsStore(store.Connections, store.Clock, store.Audit);
        var configured = new AlertOptions { RenotifyInterval = TimeSpan.FromHours(24) };
        var empty = await settings.GetAsync(None);

        await settings.SaveAsync(new Dictionary<string, string>
        {
            [AlertOptions.Editable.NonCompliant] = "false", [AlertOptions.Editable.RenotifyInterval] = "06:00:00",
        }, "alice", None);
        store.Clock.Advance(TimeSpan.FromMinutes(5));
        await settings.SaveAsync(new Dictionary<string, string> { [AlertOptions.Editable.Recovery] = "false" }, "bob", None);
        var stored = await settings.GetAsync(None);
        var effective = configured.WithOverrides(stored.Values);

        Assert.Same(configured, configured.WithOverrides(empty.Values));
        Assert.Equal((false, true, false, TimeSpan.FromHours(6)),
            (effective.Rules.NonCompliant, effective.Rules.Unknown, effective.Rules.Recovery, effective.RenotifyInterval));
        Assert.Equal((true, TimeSpan.FromHours(24)), (configured.Rules.NonCompliant, configured.RenotifyInterval));
        Assert.Equal(("bob", TestStore.Start.AddMinutes(5)), (stored.ChangedBy, stored.ChangedAt));
        var audit = await store.Audit.QueryAsync(new AuditFilter(Action: AuditActions.AlertSettingsSaved), null, 10, None);
        Assert.Equal(2, audit.Count);
        Assert.Null(audit[1].Before);
        Assert.Equal("""{"RenotifyInterval":"06:00:00","Rules:NonCompliant":"false"}""", audit[0].Before);
        Assert.Equal("""{"Rules:Recovery":"false"}""", audit[0].After);
    }
}
