using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace IfiDashboard.Server.Tests.Api;

/// <summary><c>POST /instances/sync?mode=partial</c>: the valid items are stored, each other one reported by its path.</summary>
public sealed class PartialSyncTests : IAsyncLifetime
{
    readonly ApiHost _host = new();
    HttpClient _cmdb = null!;

    public async Task InitializeAsync()
    {
        _cmdb = await _host.CmdbClientAsync();
        foreach (var key in new[] { "CI002", "CI009" })
            (await _cmdb.PutAsJsonAsync($"/api/v1/instances/{key}", ApiTestData.PutBody("OLD" + key))).EnsureSuccessStatusCode();
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    [Fact]
    public async Task Valid_items_are_stored_and_each_rejected_one_is_reported_by_path_while_its_instance_stays()
    {
        var broken = ApiTestData.Instance("SQL002", "CI002", port: 0);
        var sameServer = ApiTestData.Instance("SQL006", "CI006");
        sameServer["host"] = "sql001.corp.example";
        var payload = ApiTestData.Sync([ApiTestData.Instance("SQL001", "CI001"), broken, ApiTestData.Instance("SQL003", "CI003"), sameServer]);

        var allOrNothing = await _cmdb.PostAsJsonAsync("/api/v1/instances/sync", payload);
        var response = await _cmdb.PostAsJsonAsync("/api/v1/instances/sync?mode=partial", payload);
        var report = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;

        Assert.Equal(HttpStatusCode.BadRequest, allOrNothing.StatusCode);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(["CI001", "CI003"], Keys(report, "created"));
        Assert.Equal(["CI009"], Keys(report, "retired"));
        var rejected = report.GetProperty("rejected").EnumerateArray().ToList();
        Assert.Equal([1, 3], rejected.Select(r => r.GetProperty("index").GetInt32()));
        Assert.Equal([400, 409], rejected.Select(r => r.GetProperty("status").GetInt32()));
        Assert.True(rejected[0].GetProperty("errors").TryGetProperty("instances[1].port", out _), rejected[0].ToString());
        Assert.True(rejected[1].GetProperty("errors").TryGetProperty("instances[3].host", out _), rejected[1].ToString());
        // The broken item's instance is neither updated nor retired; the item in another's way was never created.
        var old = await _cmdb.GetFromJsonAsync<JsonElement>("/api/v1/instances/CI002");
        Assert.Equal("OLDCI002", old.GetProperty("name").GetString());
        Assert.False(old.TryGetProperty("retiredAt", out var retiredAt) && retiredAt.ValueKind != JsonValueKind.Null);
        Assert.Equal(HttpStatusCode.NotFound, (await _cmdb.GetAsync("/api/v1/instances/CI006")).StatusCode);
    }

    [Fact]
    public async Task An_item_whose_key_cannot_be_read_retires_nothing_and_the_sync_is_one_audit_entry()
    {
        var keyless = ApiTestData.Instance("SQL004", null);
        var payload = ApiTestData.Sync([ApiTestData.Instance("SQL001", "CI001"), keyless]);

        var response = await _cmdb.PostAsJsonAsync("/api/v1/instances/sync?mode=partial", payload);
        var report = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
        var audit = _host.Client(await _host.CreateKeyAsync("audit:read"));
        var entries = (await audit.GetFromJsonAsync<JsonElement>("/api/v1/audit?action=instances.synced-partially"))
            .GetProperty("entries").EnumerateArray().ToList();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(["CI001"], Keys(report, "created"));
        Assert.Empty(Keys(report, "retired"));
        Assert.True(report.GetProperty("rejected")[0].GetProperty("errors").TryGetProperty("instances[1].externalKey", out _));
        var entry = Assert.Single(entries);
        Assert.Contains("instances[1]", entry.GetProperty("after").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_dry_run_reports_the_same_and_stores_nothing_and_an_unknown_mode_is_refused()
    {
        var payload = ApiTestData.Sync([ApiTestData.Instance("SQL001", "CI001"), ApiTestData.Instance("SQL002", "CI002", port: 0)], dryRun: true);

        var dry = JsonDocument.Parse(await (await _cmdb.PostAsJsonAsync("/api/v1/instances/sync?mode=partial", payload)).Content.ReadAsStringAsync()).RootElement;
        var unknown = await _cmdb.PostAsJsonAsync("/api/v1/instances/sync?mode=some", payload);

        Assert.Equal(["CI001"], Keys(dry, "created"));
        Assert.Single(dry.GetProperty("rejected").EnumerateArray());
        Assert.Equal(HttpStatusCode.NotFound, (await _cmdb.GetAsync("/api/v1/instances/CI001")).StatusCode);
        await ProblemAssert.IsProblemAsync(unknown, 400, "mode");
    }

    static List<string> Keys(JsonElement report, string property) =>
        report.GetProperty(property).EnumerateArray().Select(k => k.GetString()!).ToList();
}
