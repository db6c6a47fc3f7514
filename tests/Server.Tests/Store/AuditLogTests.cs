using System.Data.Common;
using System.Text.Json;
using Dapper;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Store.ApiKeys;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Policy;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Server.Security;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>The audit log on both stores: written with each change, append-only, filtered and paged.</summary>
public sealed class AuditLogTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static Task<IReadOnlyList<AuditRecord>> AllAsync(TestStore store, AuditFilter? filter = null) =>
        store.Audit.QueryAsync(filter ?? new AuditFilter(), null, AuditLog.MaxPageSize, None);

    [Theory, StoreProviders]
    public async Task Each_inventory_change_records_the_registration_before_and_after(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);

        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var registered = (await store.Instances.GetAsync(id, None))!;
        await store.Instances.UpdateAsync(registered with { Host = "sql01-new.corp.example" }, None);
        await store.Instances.RetireAsync(id, None);
        await store.Instances.RetireAsync(id, None);

        var entries = (await AllAsync(store)).Reverse().ToList();
        Assert.Equal([AuditActions.InstanceRegistered, AuditActions.InstanceUpdated, AuditActions.InstanceRetired],
            entries.Select(e => e.Action));
        Assert.All(entries, e => Assert.Equal(($"instance {id} (SQL01)", "system", (string?)null), (e.Target, e.Actor, e.RemoteAddress)));
        Assert.Null(entries[0].Before);
        Assert.Equal("sql01.corp.example", Field(entries[1].Before, "host"));
        Assert.Equal("sql01-new.corp.example", Field(entries[1].After, "host"));
        Assert.Null(Field(entries[2].Before, "retiredAt"));
        Assert.NotNull(Field(entries[2].After, "retiredAt"));
    }

    [Theory, StoreProviders]
    public async Task A_refused_change_leaves_no_entry(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await store.Instances.AddAsync(TestData.Registration("SQL01"), None);

        var duplicate = await store.Instances.RegisterAsync(TestData.Registration("sql01"), None);
        var updated = await store.Instances.UpdateAsync(TestData.Registration("SQL02") with { Id = 404 }, None);

        Assert.Equal(InventoryWriteResult.Refused, duplicate.Result);
        Assert.Equal(InventoryWriteResult.NotFound, updated.Result);
        Assert.Single(await AllAsync(store));
    }

    [Theory, StoreProviders]
    public async Task Demo_seeding_again_with_nothing_changed_records_nothing(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);

        await store.Instances.SeedAsync(TestData.Registration("SQL01"), None);
        await store.Instances.SeedAsync(TestData.Registration("SQL01"), None);
        await store.Instances.SeedAsync(TestData.Registration("SQL01") with { Port = 1500 }, None);

        Assert.Equal([AuditActions.InstanceUpdated, AuditActions.InstanceRegistered], (await AllAsync(store)).Select(e => e.Action));
    }

    [Theory, StoreProviders]
    public async Task Policy_waiver_and_api_key_changes_are_recorded_and_the_key_hash_never_is(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var policies = new PolicyStore(store.Connections, store.Clock, store.Audit);
        var keys = new ApiKeyStore(store.Connections, store.Clock, store.Audit);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        const string hash = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

        await policies.SaveRulesAsync([new PolicyRule { Name = "production", Environment = "Production", Desired = DesiredState.Required }], "alice", None);
        await policies.SaveRulesAsync([], "alice", None);
        var waiver = await policies.GrantWaiverAsync(new Waiver
        {
            InstanceId = id, Reason = "CHG-1", Author = "alice", GrantedAt = store.Clock.GetUtcNow(), ExpiresAt = store.Clock.GetUtcNow().AddDays(7),
        }, None);
        await policies.RevokeWaiverAsync(waiver, "bob", None);
        await policies.RevokeWaiverAsync(waiver, "bob", None);
        await keys.TryAddAsync("abcd2345", hash, "dc1", ["snapshot:ingest"], "dc1_collector", None);
        await keys.RevokeAsync("abcd2345", None);
        await keys.RevokeAsync("abcd2345", None);

        var entries = (await AllAsync(store)).Reverse().ToList();
        Assert.Equal(
            [AuditActions.InstanceRegistered, AuditActions.PolicySaved, AuditActions.PolicySaved, AuditActions.WaiverGranted,
                AuditActions.WaiverRevoked, AuditActions.ApiKeyIssued, AuditActions.ApiKeyRevoked],
            entries.Select(e => e.Action));
        Assert.Equal("Required", JsonDocument.Parse(entries[2].Before!).RootElement.GetProperty("rules")[0].GetProperty("desired").GetString());
        Assert.Equal("0", JsonDocument.Parse(entries[2].After!).RootElement.GetProperty("rules").GetArrayLength().ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal("CHG-1", Field(entries[4].Before, "reason"));
        Assert.Equal("dc1_collector", Field(entries[5].After, "collectorName"));
        Assert.All(entries, e => Assert.DoesNotContain(hash, e.Before + e.After, StringComparison.Ordinal));
    }

    [Theory, StoreProviders]
    public async Task The_store_refuses_to_update_or_delete_an_entry(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await store.Audit.RecordAsync(AuditActions.TestEmailSent, "dba@bank.test", null, new { accepted = true }, None);
        var before = await AllAsync(store);

        await using var connection = await store.OpenAsync();
        var update = await Assert.ThrowsAnyAsync<DbException>(() => connection.ExecuteAsync("UPDATE audit_log SET actor = 'nobody';"));
        var delete = await Assert.ThrowsAnyAsync<DbException>(() => connection.ExecuteAsync("DELETE FROM audit_log;"));

        Assert.Contains("append-only", update.Message, StringComparison.Ordinal);
        Assert.Contains("append-only", delete.Message, StringComparison.Ordinal);
        Assert.Equal(before, await AllAsync(store));
    }

    [Theory, StoreProviders]
    public async Task A_sign_in_is_recorded_with_who_from_where_and_the_roles_given(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);

        await store.Audit.RecordSignInAsync(new AuditActor("Alice Smith", "10.1.2.3", "alice-sub@https://idp.bank.test"), ["Operator"], None);

        var entry = Assert.Single(await AllAsync(store));
        Assert.Equal((AuditActions.SignIn, "Alice Smith", "alice-sub@https://idp.bank.test", "10.1.2.3"),
            (entry.Action, entry.Actor, entry.ActorIdentity, entry.RemoteAddress));
        Assert.Equal("Operator", JsonDocument.Parse(entry.After!).RootElement.GetProperty("roles")[0].GetString());
    }

    [Theory, StoreProviders]
    public async Task Refusals_are_counted_per_source_and_reason_and_a_window_holds_a_bounded_number_of_rows(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        const int sources = AuditLog.MaxRefusalSourcesPerWindow + 50;
        var window = store.Clock.GetUtcNow().AddTicks(-(store.Clock.GetUtcNow().UtcTicks % AuditLog.RefusalWindow.Ticks));

        for (var i = 0; i < 3; i++)
            await store.Audit.CountRefusalAsync(AuditActions.SignInFailed, new AuditActor(AuditActors.Anonymous, "10.6.6.6"), "forged state", None);
        for (var i = 0; i < sources; i++)
            await store.Audit.CountRefusalAsync(AuditActions.SignInFailed, new AuditActor(AuditActors.Anonymous, $"10.7.{i / 256}.{i % 256}"), "forged state", None);
        await store.Audit.CountRefusalAsync(AuditActions.CollectorRefused, AuditActor.Collector("c1", "10.8.0.1"), "lease for another collector name", None);

        var counts = await store.Audit.RefusalCountsAsync(DateTimeOffset.MinValue, DateTimeOffset.MaxValue, None);
        Assert.Empty(await AllAsync(store));
        Assert.All(counts, c => Assert.Equal(window, c.WindowStart));
        // 100 named sources, then one row of other sources per kind of refusal: the bound docs/security.md states.
        Assert.Equal(AuditLog.MaxRefusalSourcesPerWindow + 2, counts.Count);
        Assert.Equal(3 + sources + 1, counts.Sum(c => c.Refusals));
        Assert.Equal(3, counts.Single(c => c.RemoteAddress == "10.6.6.6").Refusals);
        Assert.Equal(sources - (AuditLog.MaxRefusalSourcesPerWindow - 1),
            counts.Single(c => c.Action == AuditActions.SignInFailed && c.Actor == AuditLog.OtherSources).Refusals);
        Assert.Equal(1, counts.Single(c => c.Action == AuditActions.CollectorRefused && c.Actor == AuditLog.OtherSources).Refusals);
    }

    [Theory, StoreProviders]
    public async Task Pruning_deletes_only_entries_older_than_its_cut_off_records_that_it_did_and_the_log_refuses_any_other_delete(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await store.Audit.RecordAsync(AuditActions.TestEmailSent, "old", null, null, None);
        await store.Audit.CountRefusalAsync(AuditActions.SignInFailed, new AuditActor(AuditActors.Anonymous, "10.6.6.6"), "forged state", None);
        store.Clock.Advance(TimeSpan.FromDays(10));
        await store.Audit.RecordAsync(AuditActions.TestEmailSent, "new", null, null, None);

        var pruned = await store.Audit.PruneBatchAsync(store.Clock.GetUtcNow().AddDays(-5), 500, None);
        var again = await store.Audit.PruneBatchAsync(store.Clock.GetUtcNow().AddDays(-5), 500, None);
        await using var connection = await store.OpenAsync();
        var delete = await Assert.ThrowsAnyAsync<DbException>(() => connection.ExecuteAsync("DELETE FROM audit_log;"));

        Assert.Equal((1, 1), pruned);
        Assert.Equal((0, 0), again);
        Assert.Contains("append-only", delete.Message, StringComparison.Ordinal);
        var entries = await AllAsync(store);
        Assert.Equal([(AuditActions.AuditPruned, "audit log"), (AuditActions.TestEmailSent, "new")], entries.Select(e => (e.Action, e.Target!)));
        Assert.Equal(1, JsonDocument.Parse(entries[0].After!).RootElement.GetProperty("entries").GetInt32());
        Assert.Empty(await store.Audit.RefusalCountsAsync(DateTimeOffset.MinValue, DateTimeOffset.MaxValue, None));
    }

    [Theory, StoreProviders]
    public async Task Entries_filter_by_actor_action_and_time_and_page_newest_first(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var alice = new AuditActor("alice", "10.0.0.1");
        var bob = new AuditActor("bob", "10.0.0.2");
        for (var i = 0; i < 5; i++)
        {
            await store.Audit.RecordAsync(AuditActions.TestEmailSent, $"mail {i}", null, null, None, i % 2 == 0 ? alice : bob);
            store.Clock.Advance(TimeSpan.FromHours(1));
        }
        var start = TestStore.Start;

        var byAlice = await AllAsync(store, new AuditFilter(Actor: "alice"));
        var byAction = await AllAsync(store, new AuditFilter(Action: AuditActions.SignIn));
        var window = await AllAsync(store, new AuditFilter(From: start.AddHours(1), To: start.AddHours(3)));
        var firstPage = await store.Audit.QueryAsync(new AuditFilter(), null, 2, None);
        var secondPage = await store.Audit.QueryAsync(new AuditFilter(), firstPage[^1].Id, 2, None);

        Assert.Equal(["mail 4", "mail 2", "mail 0"], byAlice.Select(e => e.Target));
        Assert.Empty(byAction);
        Assert.Equal(["mail 2", "mail 1"], window.Select(e => e.Target));
        Assert.Equal(["mail 4", "mail 3", "mail 2", "mail 1"], firstPage.Concat(secondPage).Select(e => e.Target));
    }

    static string? Field(string? json, string name) =>
        json is null ? throw new ArgumentNullException(nameof(json))
        : FindField(JsonDocument.Parse(json).RootElement, name);

    // Inventory entries nest the registration beside the external key; policy entries do not.
    static string? FindField(JsonElement element, string name)
    {
        if (element.ValueKind != JsonValueKind.Object)
            return null;
        foreach (var property in element.EnumerateObject())
        {
            if (property.NameEquals(name))
                return property.Value.ValueKind == JsonValueKind.Null ? null : property.Value.ToString();
            if (FindField(property.Value, name) is { } nested)
                return nested;
        }
        return null;
    }
}
