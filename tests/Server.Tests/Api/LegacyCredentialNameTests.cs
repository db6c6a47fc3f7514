using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Inventory;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// Earlier releases registered credential names with a '-' (their own docs said <c>fleet-reader</c>). A CMDB sync
/// re-sends every registration and is all-or-nothing, so refusing the old name would stop the whole sync.
/// </summary>
public sealed class LegacyCredentialNameTests
{
    [Fact]
    public async Task A_hyphenated_credential_name_is_accepted_again_by_put_and_by_sync()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        var body = ApiTestData.PutBody("SQL01");
        body["credentialName"] = "fleet-reader";

        var created = await client.PutAsJsonAsync("/api/v1/instances/CI001", body);
        var resent = await client.PutAsJsonAsync("/api/v1/instances/CI001", body);
        body["externalKey"] = "CI001";
        var synced = await client.PostAsJsonAsync("/api/v1/instances/sync", new { dryRun = true, instances = new[] { body } });

        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal(HttpStatusCode.OK, resent.StatusCode);
        Assert.Equal("unchanged", (await resent.Content.ReadFromJsonAsync<PutInstanceResponse>())!.Result);
        Assert.True(synced.StatusCode == HttpStatusCode.OK, await synced.Content.ReadAsStringAsync());
    }
}
