using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Keys;

namespace IfiDashboard.Server.Tests.Api;

public sealed class ApiKeysApiTests
{
    [Fact]
    public async Task Admin_creates_lists_gets_and_revokes_a_key_which_then_stops_working()
    {
        await using var host = new ApiHost();
        var admin = host.Client(ApiHost.BootstrapKey);

        var created = await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "cmdb", scopes = new[] { "read", "inventory:write" } });
        var key = (await created.Content.ReadFromJsonAsync<CreatedApiKeyResponse>())!;
        var cmdb = host.Client(key.Key);
        var before = await cmdb.GetAsync("/api/v1/instances");
        var listed = await admin.GetFromJsonAsync<List<ApiKeyResponse>>("/api/v1/api-keys");
        var one = await admin.GetFromJsonAsync<ApiKeyResponse>($"/api/v1/api-keys/{key.Prefix}");
        var revoked = await admin.DeleteAsync($"/api/v1/api-keys/{key.Prefix}");
        var after = await cmdb.GetAsync("/api/v1/instances");
        var unknown = await admin.DeleteAsync("/api/v1/api-keys/zzzzzzzz");

        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.StartsWith($"ifi_{key.Prefix}_", key.Key, StringComparison.Ordinal);
        Assert.Equal(["read", "inventory:write"], key.Scopes);
        Assert.Equal(HttpStatusCode.OK, before.StatusCode);
        var listedKey = Assert.Single(listed!);
        Assert.Equal(key.Prefix, listedKey.Prefix);
        Assert.DoesNotContain(key.Key, await admin.GetStringAsync("/api/v1/api-keys"), StringComparison.Ordinal);
        Assert.Null(one!.RevokedAt);
        Assert.Equal(HttpStatusCode.NoContent, revoked.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, after.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.NotNull((await admin.GetFromJsonAsync<ApiKeyResponse>($"/api/v1/api-keys/{key.Prefix}"))!.RevokedAt);
    }

    [Fact]
    public async Task Unknown_or_duplicate_scopes_are_named()
    {
        await using var host = new ApiHost();
        var admin = host.Client(ApiHost.BootstrapKey);

        var response = await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "x", scopes = new[] { "read", "root", "read" } });
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("scopes[1]", body, StringComparison.Ordinal);
        Assert.Contains("scopes[2]", body, StringComparison.Ordinal);
    }
}
