using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Inventory;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Inventory;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api;

[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class SyncTests
{
    [Fact]
    public async Task Sync_creates_updates_keeps_and_retires_by_external_key()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await Sync(client, ApiTestData.Sync([
            ApiTestData.Instance("SQL01", "CI001"),
            ApiTestData.Instance("SQL02", "CI002"),
            ApiTestData.Instance("SQL03", "CI003"),
        ]));

        var result = await Sync(client, ApiTestData.Sync([
            ApiTestData.Instance("SQL01", "CI001"),
            ApiTestData.Instance("SQL02", "CI002", port: 14330),
            ApiTestData.Instance("SQL04", "CI004"),
        ]));

        Assert.False(result.DryRun);
        Assert.Equal(["CI004"], result.Created);
        Assert.Equal(["CI002"], result.Updated);
        Assert.Equal(["CI003"], result.Retired);
        Assert.Equal(["CI001"], result.Unchanged);
        var active = await client.GetFromJsonAsync<InstancePage>("/api/v1/instances");
        Assert.Equal(["SQL01", "SQL02", "SQL04"], active!.Items.Select(i => i.Name));
        Assert.Equal(14330, active.Items[1].Port);
        Assert.NotNull((await client.GetFromJsonAsync<InstanceResource>("/api/v1/instances/CI003"))!.RetiredAt);
    }

    [Fact]
    public async Task Dry_run_reports_the_same_changes_and_writes_nothing()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001"), ApiTestData.Instance("SQL02", "CI002")]));
        var before = await StoreDump.AllTextAsync(host.Services);

        var result = await Sync(client, ApiTestData.Sync(
            [ApiTestData.Instance("SQL01", "CI001", owner: "new-owner"), ApiTestData.Instance("SQL03", "CI003")], dryRun: true));

        Assert.True(result.DryRun);
        Assert.Equal(["CI003"], result.Created);
        Assert.Equal(["CI001"], result.Updated);
        Assert.Equal(["CI002"], result.Retired);
        Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
    }

    [Fact]
    public async Task Retire_missing_false_leaves_instances_the_payload_omits()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001"), ApiTestData.Instance("SQL02", "CI002")]));

        var result = await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL03", "CI003")], retireMissing: false));

        Assert.Empty(result.Retired);
        Assert.Equal(["CI003"], result.Created);
        Assert.Equal(3, (await client.GetFromJsonAsync<InstancePage>("/api/v1/instances"))!.Items.Count);
    }

    [Fact]
    public async Task Sync_never_retires_instances_registered_outside_the_cmdb()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await host.Services.GetRequiredService<InstanceInventory>().AddAsync(
            new InstanceRegistration { Name = "DEMO01", Host = "127.0.0.1", Port = 50000 }, CancellationToken.None);

        var result = await Sync(client, ApiTestData.Sync([]));

        Assert.Empty(result.Retired);
        Assert.Single((await client.GetFromJsonAsync<InstancePage>("/api/v1/instances"))!.Items);
    }

    [Fact]
    public async Task Two_instances_can_swap_names_in_one_sync()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001"), ApiTestData.Instance("SQL02", "CI002")]));

        var result = await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL02", "CI001"), ApiTestData.Instance("SQL01", "CI002")]));

        Assert.Equal(["CI001", "CI002"], result.Updated);
        Assert.Equal("SQL02", (await client.GetFromJsonAsync<InstanceResource>("/api/v1/instances/CI001"))!.Name);
        Assert.Equal("SQL01", (await client.GetFromJsonAsync<InstanceResource>("/api/v1/instances/CI002"))!.Name);
    }

    [Fact]
    public async Task A_name_kept_by_an_instance_outside_the_sync_is_409_and_nothing_changes()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await host.Services.GetRequiredService<InstanceInventory>().AddAsync(
            new InstanceRegistration { Name = "DEMO01", Host = "127.0.0.1", Port = 50000 }, CancellationToken.None);
        var before = await StoreDump.AllTextAsync(host.Services);

        var response = await client.PostAsJsonAsync("/api/v1/instances/sync",
            ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001"), ApiTestData.Instance("demo01", "CI002")]));

        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        Assert.Contains("instances[1].name", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
    }

    [Fact]
    public async Task Changing_how_to_reach_an_instance_makes_it_due_again()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001")]));
        var source = host.Services.GetRequiredService<IInstanceSource>();
        var leased = Assert.Single(await source.LeaseDueAsync("c1", 10, TimeSpan.FromMinutes(1), CancellationToken.None));
        await source.CompleteAsync(leased.Id, "c1", DateTimeOffset.UtcNow.AddHours(1), CancellationToken.None);

        await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001", owner: "someone-else")]));
        var afterOwnerChange = await source.LeaseDueAsync("c1", 10, TimeSpan.FromMinutes(1), CancellationToken.None);
        await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001", port: 2000, owner: "someone-else")]));
        var afterPortChange = await source.LeaseDueAsync("c1", 10, TimeSpan.FromMinutes(1), CancellationToken.None);

        Assert.Empty(afterOwnerChange);
        Assert.Equal(2000, Assert.Single(afterPortChange).Port);
    }

    [Fact]
    public async Task Syncs_that_write_are_limited_per_key_and_a_refused_one_is_429_and_stores_nothing()
    {
        await using var host = new ApiHost(builder => builder.UseSetting("BulkRegistration:PermitLimit", "2"));
        var client = await host.CmdbClientAsync();
        await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001")]));
        await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL01", "CI001"), ApiTestData.Instance("SQL02", "CI002")]));
        var before = await StoreDump.AllTextAsync(host.Services);

        var dryRun = await Sync(client, ApiTestData.Sync([ApiTestData.Instance("SQL03", "CI003")], dryRun: true));
        using var refused = await client.PostAsJsonAsync("/api/v1/instances/sync", ApiTestData.Sync([ApiTestData.Instance("SQL03", "CI003")]));

        Assert.Equal(["CI003"], dryRun.Created); // a dry run writes nothing and is not counted
        Assert.Equal(HttpStatusCode.TooManyRequests, refused.StatusCode);
        Assert.Equal("application/problem+json", refused.Content.Headers.ContentType?.MediaType);
        Assert.True(refused.Headers.RetryAfter?.Delta > TimeSpan.Zero);
        Assert.Contains("BulkRegistration:PermitLimit", await refused.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
    }

    static async Task<SyncResponse> Sync(HttpClient client, object body)
    {
        var response = await client.PostAsJsonAsync("/api/v1/instances/sync", body);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return (await response.Content.ReadFromJsonAsync<SyncResponse>())!;
    }
}
