using System.Net;
using System.Net.Http.Json;

namespace IfiDashboard.Server.Tests.Api.Compliance;

public sealed class ComplianceAuthTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    public static TheoryData<string> Paths() =>
    [
        "/api/v1/compliance/summary",
        "/api/v1/compliance/instances",
        "/api/v1/compliance/instances/CI001",
        "/api/v1/compliance/instances/CI001/growth-events",
        "/api/v1/compliance/time-lost",
        "/api/v1/compliance/restore-risk",
        "/api/v1/compliance/export",
        "/api/v1/changes",
    ];

    [Theory]
    [MemberData(nameof(Paths))]
    public async Task Read_scope_is_200_other_scopes_403_and_no_key_401(string path)
    {
        var host = shared.Host;
        var cmdb = await host.CmdbClientAsync();
        await cmdb.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"));

        var read = await host.Client(await host.CreateKeyAsync("read")).GetAsync(path);
        var write = await host.Client(await host.CreateKeyAsync("inventory:write", "snapshot:ingest", "admin")).GetAsync(path);
        var none = await host.Client(null).GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, read.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, write.StatusCode);
        Assert.Contains("'read'", await write.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Unauthorized, none.StatusCode);
        Assert.Equal("application/problem+json", none.Content.Headers.ContentType?.MediaType);
    }
}
