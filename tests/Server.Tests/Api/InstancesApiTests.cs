using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Inventory;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// Tests that write instances of their own (keys and names no other test uses) share one server; those that assert on
/// every instance the store holds (the list, the lease, the active set) start their own.
/// </summary>
public sealed class InstancesApiTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    [Fact]
    public async Task Put_creates_then_updates_then_reports_unchanged()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();

        var created = await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"));
        var updated = await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01", port: 14330));
        var unchanged = await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01", port: 14330));

        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal("/api/v1/instances/CI001", created.Headers.Location?.OriginalString);
        Assert.Equal("created", (await created.Content.ReadFromJsonAsync<PutInstanceResponse>())!.Result);
        Assert.Equal(HttpStatusCode.OK, updated.StatusCode);
        var updatedBody = (await updated.Content.ReadFromJsonAsync<PutInstanceResponse>())!;
        Assert.Equal("updated", updatedBody.Result);
        Assert.Equal(14330, updatedBody.Instance.Port);
        Assert.Equal(2, updatedBody.Instance.Version);
        Assert.Equal(HttpStatusCode.OK, unchanged.StatusCode);
        var unchangedBody = (await unchanged.Content.ReadFromJsonAsync<PutInstanceResponse>())!;
        Assert.Equal("unchanged", unchangedBody.Result);
        Assert.Equal(2, unchangedBody.Instance.Version);
        Assert.Equal(updated.Headers.ETag, unchanged.Headers.ETag);
    }

    [Fact]
    public async Task Get_returns_every_cmdb_field_with_an_etag()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();
        var body = ApiTestData.PutBody("SQL02", tags: ["tier1", "emea"]);
        body.Remove("port");
        body["instanceName"] = "INST1";
        body["encrypt"] = "strict";
        body["trustServerCertificate"] = true;
        body["hostNameInCertificate"] = "sql02.corp.example";
        body["pollIntervalSeconds"] = 60;
        await client.PutAsJsonAsync("/api/v1/instances/CI002", body);

        var response = await client.GetAsync("/api/v1/instances/CI002");
        var instance = (await response.Content.ReadFromJsonAsync<InstanceResource>())!;

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.NotNull(response.Headers.ETag);
        Assert.Equal("CI002", instance.ExternalKey);
        Assert.Equal("SQL02", instance.Name);
        Assert.Equal("sql02.corp.example", instance.Host);
        Assert.Null(instance.Port);
        Assert.Equal("INST1", instance.InstanceName);
        Assert.Equal("Strict", instance.Encrypt);
        Assert.True(instance.TrustServerCertificate);
        Assert.Equal("sql02.corp.example", instance.HostNameInCertificate);
        Assert.Equal("fleet_reader", instance.CredentialName);
        Assert.Equal(60, instance.PollIntervalSeconds);
        Assert.Equal(["tier1", "emea"], instance.Tags);
        Assert.Equal("dba-team", instance.Owner);
        Assert.Null(instance.RetiredAt);
    }

    [Fact]
    public async Task Put_stores_a_registration_the_collector_can_lease()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();

        await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01", port: 14330));

        var leased = await host.Services.GetRequiredService<IInstanceSource>()
            .LeaseDueAsync("api-tests", 10, TimeSpan.FromMinutes(1), CancellationToken.None);
        var registration = Assert.Single(leased);
        Assert.Equal("SQL01", registration.Name);
        Assert.Equal(14330, registration.Port);
        Assert.Equal("fleet_reader", registration.CredentialName);
    }

    [Fact]
    public async Task Delete_retires_keeps_history_and_a_later_put_registers_anew()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        var first = (await (await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01")))
            .Content.ReadFromJsonAsync<PutInstanceResponse>())!.Instance;

        var deleted = await client.DeleteAsync("/api/v1/instances/CI001");
        var afterDelete = await client.GetFromJsonAsync<InstanceResource>("/api/v1/instances/CI001");
        var again = await client.DeleteAsync("/api/v1/instances/CI001");
        var recreated = await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"));

        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.NotNull(afterDelete!.RetiredAt);
        Assert.Equal(first.Id, afterDelete.Id);
        Assert.Equal(HttpStatusCode.NotFound, again.StatusCode);
        Assert.Equal(HttpStatusCode.Created, recreated.StatusCode);
        var active = await host.Services.GetRequiredService<InstanceInventory>().ListActiveAsync(CancellationToken.None);
        Assert.NotEqual(first.Id, Assert.Single(active).Id);
        Assert.NotNull(await host.Services.GetRequiredService<InstanceInventory>().GetAsync(first.Id, CancellationToken.None));
    }

    [Fact]
    public async Task Unknown_key_is_404_problem()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();

        var get = await client.GetAsync("/api/v1/instances/NOPE");
        var delete = await client.DeleteAsync("/api/v1/instances/NOPE");

        Assert.Equal(HttpStatusCode.NotFound, get.StatusCode);
        Assert.Equal("application/problem+json", get.Content.Headers.ContentType?.MediaType);
        Assert.Equal(HttpStatusCode.NotFound, delete.StatusCode);
    }

    [Fact]
    public async Task Put_with_a_name_another_active_instance_has_is_409_naming_the_field()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();
        await host.Services.GetRequiredService<InstanceInventory>().AddAsync(
            new InstanceRegistration { Name = "SQL03", Host = "sql03.corp.example" }, CancellationToken.None);

        var response = await client.PutAsJsonAsync("/api/v1/instances/CI003", ApiTestData.PutBody("sql03"));

        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        Assert.Contains("\"name\"", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_filters_by_environment_owner_tag_and_text()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await client.PutAsJsonAsync("/api/v1/instances/A", ApiTestData.PutBody("PAYROLL01", environment: "Production", owner: "finance", tags: ["pci"]));
        await client.PutAsJsonAsync("/api/v1/instances/B", ApiTestData.PutBody("PAYROLL02", environment: "Test", owner: "finance"));
        await client.PutAsJsonAsync("/api/v1/instances/C", ApiTestData.PutBody("CRM01", environment: "Production", owner: "sales", tags: ["PCI", "emea"]));
        await client.DeleteAsync("/api/v1/instances/B");

        async Task<string[]> Names(string query) =>
            (await client.GetFromJsonAsync<InstancePage>("/api/v1/instances" + query))!.Items.Select(i => i.Name).ToArray();

        Assert.Equal(["PAYROLL01", "CRM01"], await Names(""));
        Assert.Equal(["PAYROLL01", "PAYROLL02", "CRM01"], await Names("?includeRetired=true"));
        Assert.Equal(["PAYROLL01", "CRM01"], await Names("?environment=production"));
        Assert.Equal(["PAYROLL01"], await Names("?owner=finance"));
        Assert.Equal(["PAYROLL01", "CRM01"], await Names("?tag=pci"));
        Assert.Equal(["CRM01"], await Names("?tag=emea"));
        Assert.Equal(["PAYROLL01"], await Names("?q=roll"));
        Assert.Equal(["CRM01"], await Names("?q=crm01.corp"));
        Assert.Empty(await Names("?q=%25"));
        Assert.Equal(["PAYROLL02"], await Names("?includeRetired=true&environment=Test"));
    }

    [Fact]
    public async Task List_shows_instances_registered_outside_the_api_without_an_external_key()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await host.Services.GetRequiredService<InstanceInventory>().AddAsync(
            new InstanceRegistration { Name = "DEMO01", Host = "127.0.0.1", Port = 50000 }, CancellationToken.None);

        var page = await client.GetFromJsonAsync<InstancePage>("/api/v1/instances");

        var item = Assert.Single(page!.Items);
        Assert.Equal("DEMO01", item.Name);
        Assert.Null(item.ExternalKey);
    }

    [Fact]
    public async Task Injection_text_in_tags_and_owner_is_stored_verbatim_and_never_executed()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();
        const string hostile = "'; DROP TABLE instances;--";

        var put = await client.PutAsJsonAsync("/api/v1/instances/CI004",
            ApiTestData.PutBody("SQL04", owner: "x\" OR 1=1 --", tags: [hostile, "Robert'); DROP TABLE api_keys;--"]));
        var read = await client.GetFromJsonAsync<InstanceResource>("/api/v1/instances/CI004");
        var filtered = await client.GetFromJsonAsync<InstancePage>("/api/v1/instances?tag=" + Uri.EscapeDataString(hostile));
        var keysStillWork = await client.GetAsync("/api/v1/instances?owner=" + Uri.EscapeDataString("' OR '1'='1"));

        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal([hostile, "Robert'); DROP TABLE api_keys;--"], read!.Tags);
        Assert.Equal("x\" OR 1=1 --", read.Owner);
        Assert.Single(filtered!.Items);
        Assert.Empty((await keysStillWork.Content.ReadFromJsonAsync<InstancePage>())!.Items);
    }
}
