using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using IfiDashboard.Server.Tests.Functional;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>Tests that need the default settings share one server; those that change a setting start their own.</summary>
public sealed class AuthTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    [Fact]
    public async Task Missing_key_is_401_problem_with_a_challenge()
    {
        var host = shared.Host;

        var response = await host.Client(null).GetAsync("/api/v1/instances");

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("ApiKey", response.Headers.WwwAuthenticate.Single().Scheme);
        Assert.Contains("API key required", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Unknown_key_is_401_rejected()
    {
        var host = shared.Host;

        var response = await host.Client("ifi_abcdefgh_not-a-real-key").GetAsync("/api/v1/instances");

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Contains("API key rejected", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bootstrap_admin_key_manages_keys_but_reads_nothing_else()
    {
        var host = shared.Host;
        var admin = host.Client(ApiHost.BootstrapKey);

        Assert.Equal(HttpStatusCode.OK, (await admin.GetAsync("/api/v1/api-keys")).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await admin.GetAsync("/api/v1/instances")).StatusCode);
    }

    [Fact]
    public async Task Without_a_configured_bootstrap_key_nothing_is_admin()
    {
        await using var host = new ApiHost(b => b.UseSetting("Api:BootstrapAdminKey", ""));

        var response = await host.Client(ApiHost.BootstrapKey).GetAsync("/api/v1/api-keys");

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
    }

    [Fact]
    public async Task Bearer_authorization_is_accepted_as_well_as_the_header()
    {
        var host = shared.Host;
        var key = await host.CreateKeyAsync("read");
        var client = host.CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", key);

        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/v1/instances")).StatusCode);
    }

    [Fact]
    public async Task Keys_are_stored_only_as_hashes()
    {
        var host = shared.Host;

        var key = await host.CreateKeyAsync("read", "inventory:write");

        var store = await StoreDump.AllTextAsync(host.Services);
        Assert.DoesNotContain(key, store, StringComparison.Ordinal);
        Assert.DoesNotContain(key.Split('_')[2], store, StringComparison.Ordinal);
        Assert.DoesNotContain(ApiHost.BootstrapKey, store, StringComparison.Ordinal);
        Assert.Contains(IfiDashboard.Server.Security.ApiKeyMaterial.Hash(key), store, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Collector_api_takes_its_configured_keys_and_stored_keys_with_snapshot_ingest()
    {
        await using var host = new ApiHost(b => b.UseSetting("Ingestion:ApiKeys:c1", "collector-key-0123456789"));
        var readKey = await host.CreateKeyAsync("read");
        var ingestKey = await host.CreateKeyAsync("snapshot:ingest");

        async Task<HttpStatusCode> Release(string key) =>
            (await host.Client(key).PostAsJsonAsync("/api/v1/collector/leases/release", new { collectorName = "c1" })).StatusCode;

        Assert.Equal(HttpStatusCode.NoContent, await Release("collector-key-0123456789"));
        Assert.Equal(HttpStatusCode.NoContent, await Release(ingestKey));
        Assert.Equal(HttpStatusCode.Forbidden, await Release(readKey));
        Assert.Equal(HttpStatusCode.Unauthorized, await Release("ifi_abcdefgh_unknown"));
    }
}

/// <summary>
/// Each API endpoint against each scope, on one server for the whole matrix (a server per case cost a host start each,
/// issue 12's shared test hosts).
/// </summary>
public sealed class ApiScopeMatrixTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    readonly ApiHost host = shared.Host;

    public static TheoryData<string, string, string, int> ScopeMatrix() => new()
    {
        // key's scope, method, path, expected status
        { "read", "GET", "/api/v1/instances", 200 },
        { "read", "GET", "/api/v1/instances/{own}", 200 },
        { "read", "PUT", "/api/v1/instances/{new}", 403 },
        { "read", "DELETE", "/api/v1/instances/{own}", 403 },
        { "read", "POST", "/api/v1/instances/sync", 403 },
        { "read", "GET", "/api/v1/api-keys", 403 },
        { "inventory:write", "GET", "/api/v1/instances", 403 },
        { "inventory:write", "GET", "/api/v1/instances/{own}", 403 },
        { "inventory:write", "PUT", "/api/v1/instances/{new}", 201 },
        { "inventory:write", "DELETE", "/api/v1/instances/{own}", 204 },
        { "inventory:write", "POST", "/api/v1/instances/sync", 200 },
        { "inventory:write", "POST", "/api/v1/api-keys", 403 },
        { "snapshot:ingest", "GET", "/api/v1/instances", 403 },
        { "snapshot:ingest", "POST", "/api/v1/collector/leases/release", 204 },
        { "snapshot:ingest", "PUT", "/api/v1/instances/{new}", 403 },
        { "admin", "GET", "/api/v1/instances", 403 },
        { "admin", "PUT", "/api/v1/instances/{new}", 403 },
        { "admin", "GET", "/api/v1/api-keys", 200 },
        { "admin", "POST", "/api/v1/api-keys", 201 },
    };

    [Theory]
    [MemberData(nameof(ScopeMatrix))]
    public async Task Each_endpoint_needs_its_scope_and_answers_403_without_it(string scope, string method, string path, int expected)
    {
        // Every case has instances of its own ({own} registered, {new} not), so the cases share one server in any order.
        var suffix = Guid.NewGuid().ToString("N")[..8].ToUpperInvariant();
        var (own, ownName, fresh) = ($"CI{suffix}", $"SQLA{suffix}", $"CN{suffix}");
        var setup = await host.CmdbClientAsync();
        (await setup.PutAsJsonAsync($"/api/v1/instances/{own}", ApiTestData.PutBody(ownName))).EnsureSuccessStatusCode();
        var client = host.Client(await host.CreateKeyAsync(scope));

        var response = await client.SendAsync(
            Request(method, path.Replace("{own}", own).Replace("{new}", fresh), ownName, own, $"SQLB{suffix}"));

        Assert.Equal(expected, (int)response.StatusCode);
        if (expected == 403)
        {
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            Assert.Contains("does not have the scope", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        }
    }

    static HttpRequestMessage Request(string method, string path, string ownName, string ownKey, string newName)
    {
        var request = new HttpRequestMessage(new HttpMethod(method), path);
        if (method == "PUT")
            request.Content = JsonContent.Create(ApiTestData.PutBody(newName));
        else if (path.EndsWith("/sync", StringComparison.Ordinal))
            request.Content = JsonContent.Create(new { instances = new[] { ApiTestData.Instance(ownName, ownKey) }, retireMissing = false });
        else if (path.Contains("/collector/", StringComparison.Ordinal))
            request.Content = JsonContent.Create(new { collectorName = "c1" });
        else if (method == "POST")
            request.Content = JsonContent.Create(new { name = "another-" + newName, scopes = new[] { "read" } });
        return request;
    }
}
