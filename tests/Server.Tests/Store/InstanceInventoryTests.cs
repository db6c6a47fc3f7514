using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Tests.Store;

public sealed class InstanceInventoryTests
{
    [Theory, StoreProviders]
    public async Task Added_instance_reads_back_with_all_fields(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var registration = TestData.Registration("SQL01") with
        {
            Port = null,
            InstanceName = "INST1",
            Encrypt = EncryptMode.Strict,
            TrustServerCertificate = true,
            HostNameInCertificate = "sql01.corp.example",
            PollIntervalSeconds = 60,
        };

        var id = await store.Instances.AddAsync(registration, CancellationToken.None);
        var read = await store.Instances.GetAsync(id, CancellationToken.None);

        Assert.NotNull(read);
        Assert.Equal(id, read.Id);
        Assert.Equal(["tier1", "emea"], read.Tags);
        Assert.Equivalent(registration with { Id = id, Tags = read.Tags }, read);
    }

    [Theory, StoreProviders]
    public async Task Unknown_id_reads_as_null(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);

        Assert.Null(await store.Instances.GetAsync(404, CancellationToken.None));
    }

    [Theory, StoreProviders]
    public async Task Duplicate_name_ignoring_case_is_rejected(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await store.Instances.AddAsync(TestData.Registration("SQL01"), CancellationToken.None);

        var refused = await store.Instances.RegisterAsync(TestData.Registration("sql01") with { Port = 1500 }, CancellationToken.None);

        Assert.Equal(InventoryWriteResult.Refused, refused.Result);
        Assert.Equal("name", Assert.Single(refused.Refusal!.Errors).Field);
        Assert.Equal("SQL01", refused.Refusal.Existing!.Name);
    }

    [Theory, StoreProviders]
    public async Task Seeding_by_name_updates_connection_fields_and_keeps_the_id(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), CancellationToken.None);

        var again = await store.Instances.SeedAsync(
            TestData.Registration("SQL01") with { Host = "127.0.0.1", Port = 14330, Encrypt = EncryptMode.Optional, Owner = "seed" },
            CancellationToken.None);

        var read = await store.Instances.GetAsync(id, CancellationToken.None);
        Assert.Equal(id, again.Record!.Registration.Id);
        Assert.Equal(TestData.Registration("SQL01").Owner, read!.Owner);
        Assert.Equal("127.0.0.1", read.Host);
        Assert.Equal(14330, read.Port);
        Assert.Equal(EncryptMode.Optional, read.Encrypt);
        Assert.Single(await store.Instances.ListActiveAsync(CancellationToken.None));
    }

    [Theory, StoreProviders]
    public async Task Retired_instance_is_kept_but_no_longer_listed(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var retired = await store.Instances.AddAsync(TestData.Registration("SQL01"), CancellationToken.None);
        await store.Instances.AddAsync(TestData.Registration("SQL02"), CancellationToken.None);

        await store.Instances.RetireAsync(retired, CancellationToken.None);

        var active = await store.Instances.ListActiveAsync(CancellationToken.None);
        Assert.Equal(["SQL02"], active.Select(i => i.Name));
        Assert.Equal(TestStore.Start, (await store.Instances.GetAsync(retired, CancellationToken.None))!.RetiredAt);
    }

    [Theory, StoreProviders]
    public async Task Name_of_a_retired_instance_can_be_registered_again(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var old = await store.Instances.AddAsync(TestData.Registration("SQL01"), CancellationToken.None);
        await store.Instances.RetireAsync(old, CancellationToken.None);

        var replacement = await store.Instances.AddAsync(TestData.Registration("SQL01"), CancellationToken.None);

        Assert.NotEqual(old, replacement);
    }

    [Theory, StoreProviders]
    public async Task Active_instances_are_listed_by_name(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        foreach (var name in new[] { "SQL03", "SQL01", "SQL02" })
            await store.Instances.AddAsync(TestData.Registration(name), CancellationToken.None);

        var active = await store.Instances.ListActiveAsync(CancellationToken.None);

        Assert.Equal(["SQL01", "SQL02", "SQL03"], active.Select(i => i.Name));
    }
}
